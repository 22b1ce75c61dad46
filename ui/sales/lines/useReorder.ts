import { type DragEvent, type KeyboardEvent, useRef, useState } from "react";
import type { Line } from "./types.ts";

/**
 * Reordering the line table's rows: a row is dragged by its handle and dropped on another (marked
 * `drop-target`); with the handle focused, Arrow Up and Arrow Down move the line one place. Each move
 * is announced (`announce`, for a polite live region) and the handle keeps focus in its new place.
 */
export function useReorder(lines: Line[], onMove: (from: number, to: number) => void) {
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [announce, setAnnounce] = useState("");
  const handles = useRef(new Map<number, HTMLElement>());

  const moveBy = (index: number, delta: number) => {
    const to = index + delta;
    if (to < 0 || to >= lines.length) return;
    const line = lines[index];
    onMove(index, to);
    setAnnounce(`Moved ${line.sales_inventory.serial_number} to position ${to + 1} of ${lines.length}`);
    // the handle keeps focus in its new place once the rows re-render
    requestAnimationFrame(() => handles.current.get(line.id)?.focus());
  };
  const onHandleKey = (index: number) => (e: KeyboardEvent) => {
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      moveBy(index, e.key === "ArrowUp" ? -1 : 1);
    }
  };
  const endDrag = () => {
    setDragFrom(null);
    setDropAt(null);
  };

  /** A row's class (the drop target) and its drag events. */
  const rowProps = (index: number, l: Line) => ({
    className: dropAt === index && dragFrom !== null && dragFrom !== index ? "drop-target" : undefined,
    onDragStart: (e: DragEvent) => {
      setDragFrom(index);
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", String(l.id));
    },
    onDragOver: (e: DragEvent) => {
      if (dragFrom === null) return;
      e.preventDefault();
      setDropAt(index);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      if (dragFrom !== null && dragFrom !== index) {
        onMove(dragFrom, index);
        setAnnounce(`Moved ${lines[dragFrom].sales_inventory.serial_number} to position ${index + 1}`);
      }
      endDrag();
    },
    onDragEnd: endDrag,
  });

  /** A row's drag handle: focusable, Arrow Up or Down moves the line. */
  const handleProps = (index: number, l: Line) => ({
    ref: (el: HTMLElement | null) => {
      if (el) handles.current.set(l.id, el);
      else handles.current.delete(l.id);
    },
    role: "button",
    tabIndex: 0,
    className: "drag-handle",
    "aria-label": `Reorder ${l.sales_inventory.serial_number}: Arrow Up or Down moves it`,
    title: "Drag, or focus and press Arrow Up or Down",
    onKeyDown: onHandleKey(index),
  });

  return { announce, rowProps, handleProps };
}
