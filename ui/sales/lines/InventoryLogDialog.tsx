import { type ReactNode, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { api } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { formatNumber } from "../../../lib/format.ts";
import { DateTime } from "../../lib/time_zone.tsx";
import type { Line } from "./types.ts";

type LogEntry = Line["inventory_log"][number];

export const LOG_LOADING = "Downloading Inventory Log Data...";
export const LOG_EMPTY = "No inventory log entries for this item";
export const LOG_FAILED = "No inventory log data available";

const yesNo = (v: boolean) => (v ? "Yes" : "No");

/** The spec's columns of the inventory log dialog, in order. */
const COLUMNS: { header: string; cell: (e: LogEntry) => ReactNode }[] = [
  { header: "Date", cell: (e) => <DateTime value={e.date} /> },
  { header: "Quantity In", cell: (e) => formatNumber(e.quantity_in) },
  { header: "Quantity Sold", cell: (e) => formatNumber(e.quantity_sold) },
  { header: "Quantity Reclassed", cell: (e) => formatNumber(e.quantity_reclassed) },
  { header: "Starting Quantity", cell: (e) => formatNumber(e.starting_quantity) },
  { header: "Ending Quantity", cell: (e) => formatNumber(e.ending_quantity) },
  { header: "Quantity Removed?", cell: (e) => yesNo(e.remove_quantity) },
  { header: "Billed?", cell: (e) => yesNo(e.billed) },
  { header: "Action", cell: (e) => e.action },
  { header: "User", cell: (e) => e.user_name },
  { header: "Updated At", cell: (e) => <DateTime value={e.updated_at} /> },
];

/**
 * The inventory log of one line (GET /api/sales/sales/{id}/inventory-log, newest first): every
 * check-in, removal, sale and reclass with the row's quantity before and after.
 */
export function InventoryLogDialog({ line, onClose }: { line: Line; onClose: () => void }) {
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const ac = new AbortController();
    api<LogEntry[]>(`/api/sales/sales/${line.id}/inventory-log`, { signal: ac.signal })
      .then(setEntries)
      .catch((e) => {
        if ((e as Error).name === "AbortError") return;
        setFailed(true);
        showError(e);
      });
    return () => ac.abort();
  }, [line.id]);

  const inv = line.sales_inventory;
  const name = [inv.serial_number, inv.item.item_number, inv.item.item_description].filter(Boolean).join(
    " | ",
  );
  const note = failed ? LOG_FAILED : entries === null ? LOG_LOADING : entries.length === 0 ? LOG_EMPTY : null;

  return (
    <Dialog title="Inventory Log" isOpen onClose={onClose} width={1200}>
      <p>{name}</p>
      <div className="table-wrap">
        <table className="data" aria-label={`Inventory log of ${inv.serial_number || inv.item.item_number}`}>
          <thead>
            <tr>
              {COLUMNS.map((c) => <th key={c.header} scope="col">{c.header}</th>)}
            </tr>
          </thead>
          <tbody>
            {note
              ? (
                <tr>
                  <td className="empty" colSpan={COLUMNS.length}>{note}</td>
                </tr>
              )
              : entries!.map((e) => (
                <tr key={e.id}>
                  {COLUMNS.map((c) => <td key={c.header}>{c.cell(e)}</td>)}
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <div className="dialog-actions">
        <Button className="btn btn-primary" onPress={onClose} autoFocus>Close</Button>
      </div>
    </Dialog>
  );
}
