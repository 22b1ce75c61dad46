import { type PointerEvent, useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { MAX_SIGNATURE_SIDE } from "../../../api/pt/inspections/photo_schemas.ts";

const HEIGHT = 180;
const INK = "#10204a";

/** The pixel scale of the canvas: sharp on high-density screens, never past the server's size limit. */
const scaleFor = (width: number) => Math.min(globalThis.devicePixelRatio || 1, 2, MAX_SIGNATURE_SIDE / width);
/** A pen's pressure thickens the line; a mouse and most fingers report 0.5. */
const widthOf = (pressure: number) => 1.5 + 2.5 * (pressure || 0.5);

/**
 * A signature drawn on screen with a mouse, pen or finger (pointer events, so one code path for all
 * three; `touch-action: none` keeps a finger from scrolling the page instead), saved as a PNG of dark
 * ink on transparent. Clear and Save are ordinary buttons, reachable by keyboard; drawing needs a
 * pointer, which the label says.
 */
export function SignaturePad({ busy, onSave, onCancel }: {
  busy: boolean;
  onSave: (png: Blob) => void;
  onCancel?: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [inked, setInked] = useState(false);

  useEffect(() => {
    const c = canvas.current!;
    const width = c.clientWidth || 500;
    const scale = scaleFor(width);
    c.width = Math.round(width * scale);
    c.height = Math.round(HEIGHT * scale);
    const g = c.getContext("2d")!;
    g.lineCap = g.lineJoin = "round";
    g.strokeStyle = g.fillStyle = INK;
  }, []);

  /**
   * The pen, in CSS pixels of the box as it is now: the canvas keeps the pixel size it was given when
   * the dialog opened, so a phone turned sideways still draws under the finger.
   */
  const pen = (c: HTMLCanvasElement) => {
    const r = c.getBoundingClientRect();
    const g = c.getContext("2d")!;
    const ratio = c.width / r.width;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    return {
      g,
      at: (e: { clientX: number; clientY: number }) => ({ x: e.clientX - r.left, y: e.clientY - r.top }),
    };
  };

  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    if (busy || (e.pointerType === "mouse" && e.button !== 0)) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const { g, at } = pen(e.currentTarget);
    const p = at(e);
    g.beginPath();
    g.arc(p.x, p.y, widthOf(e.pressure) / 2, 0, Math.PI * 2);
    g.fill();
    last.current = p;
    setInked(true);
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!last.current) return;
    const { g, at } = pen(e.currentTarget);
    // Coalesced events keep fast strokes smooth where the browser batches pointer moves.
    const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
    for (const ev of events.length ? events : [e.nativeEvent]) {
      const p = at(ev);
      g.lineWidth = widthOf(ev.pressure);
      g.beginPath();
      g.moveTo(last.current.x, last.current.y);
      g.lineTo(p.x, p.y);
      g.stroke();
      last.current = p;
    }
  };
  const up = () => {
    last.current = null;
  };

  const clear = () => {
    const c = canvas.current!;
    const g = c.getContext("2d")!;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    setInked(false);
  };
  const save = () => canvas.current!.toBlob((b) => b && onSave(b), "image/png");

  return (
    <div className="signature-pad">
      <span id="signature-pad-label" className="field-note">
        Sign in the box with a mouse, pen or finger.
      </span>
      <canvas
        ref={canvas}
        className="signature-canvas"
        style={{ height: HEIGHT }}
        role="img"
        aria-labelledby="signature-pad-label"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <div className="signature-actions">
        {onCancel && <Button className="btn" onPress={onCancel} isDisabled={busy}>Cancel</Button>}
        <Button className="btn" onPress={clear} isDisabled={busy || !inked}>Clear</Button>
        <Button className="btn btn-primary" onPress={save} isDisabled={busy || !inked}>
          {busy ? "Saving..." : "Save signature"}
        </Button>
      </div>
    </div>
  );
}
