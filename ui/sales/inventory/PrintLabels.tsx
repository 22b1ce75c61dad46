import { useId, useState } from "react";
import { Icon } from "../../components/icons.tsx";
import { lazyDialog, preloadOn } from "../../lib/lazy_dialog.tsx";
import type { RowSelection } from "./columns.tsx";
import type { InventoryRow } from "./types.ts";

// Loaded when first opened (decision 022).
const LabelsDialog = lazyDialog(() => import("../../scan/LabelsDialog.tsx").then((m) => m.LabelsDialog));

export const PICK_ROWS_FIRST = "Tick rows (or Select page) to print their labels.";

/** The rows picked for QR labels, kept while the list pages, sorts and filters (issue 13). */
export function useLabelSelection(
  hydrated: boolean,
): RowSelection & { clear: () => void; pick: (rows: InventoryRow[]) => void } {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggle = (row: InventoryRow, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(row.id);
      else next.delete(row.id);
      return next;
    });
  const pick = (rows: InventoryRow[]) =>
    setSelected((s) => new Set([...s, ...rows.filter((r) => r.serial_number).map((r) => r.id)]));
  return { selected, toggle, hydrated, pick, clear: () => setSelected(new Set()) };
}

/** Select the page's rows, clear the choice, and Print QR labels of the chosen rows. */
export function PrintLabels({ selection, rows }: {
  selection: ReturnType<typeof useLabelSelection>;
  rows: InventoryRow[];
}) {
  const [open, setOpen] = useState(false);
  const hintId = useId();
  const count = selection.selected.size;
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={!selection.hydrated || rows.length === 0}
        onClick={() => selection.pick(rows)}
      >
        Select page
      </button>
      {count > 0 && <button type="button" className="btn" onClick={selection.clear}>Clear selection</button>}
      <button
        type="button"
        className="btn"
        disabled={!selection.hydrated || count === 0}
        aria-describedby={count === 0 ? hintId : undefined}
        onClick={() => setOpen(true)}
        {...preloadOn(LabelsDialog.preload)}
      >
        <Icon name="print" size={20} />Print QR labels{count ? ` (${count})` : ""}
      </button>
      {/* Why Print is dimmed, beside it: nothing is picked yet. */}
      {count === 0 && <span id={hintId} className="field-note">{PICK_ROWS_FIRST}</span>}
      {open && (
        <LabelsDialog
          endpoint="/api/sales/inventory/labels"
          query={{ ids: [...selection.selected].join(",") }}
          what={count === 1 ? "the selected row" : `the ${count} selected rows`}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
