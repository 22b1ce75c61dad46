import { useState } from "react";
import { api } from "../../lib/api.ts";
import { showError, showSnack } from "../../lib/events.ts";
import { toZonedInput } from "../../../lib/format.ts";
import { type CheckInEntry, emptyEntry, planCheckIn } from "./lines.ts";
import type { Line } from "./types.ts";
import { checkInByScan } from "./scan_lines.ts";
import type { ScanReply } from "../../scan/ScanButton.tsx";

/**
 * Check-in mode of a ticket's lines: `start` gives every line an empty entry dated now (the company's
 * clock), `submit` checks the entries as the spec says (field messages, the cap alert, nothing sent
 * when refused) and sends them, then leaves the mode and calls `onDone`; `scan` marks a scanned serial's
 * line for check-in.
 */
export function useCheckIn(opts: {
  ticketId: number;
  lines: Line[];
  timeZone: string;
  onDone: () => Promise<void>;
}) {
  const [active, setActive] = useState(false);
  const [entries, setEntries] = useState<Record<number, CheckInEntry>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);

  const start = () => {
    const date = toZonedInput(new Date().toISOString(), opts.timeZone);
    setEntries(Object.fromEntries(opts.lines.map((l) => [l.id, emptyEntry(date)])));
    setErrors({});
    setActive(true);
  };

  const submit = async () => {
    const plan = planCheckIn(opts.ticketId, opts.lines, entries, opts.timeZone);
    if (!plan.ok) {
      setErrors(plan.errors ?? {});
      if (plan.alert) globalThis.alert(plan.alert);
      return;
    }
    setBusy(true);
    try {
      const r = await api<{ message?: string }>("/api/sales/inventory/check-in", {
        method: "POST",
        json: plan.body,
      });
      showSnack("success", r?.message ?? "Checked in");
      setActive(false);
      await opts.onDone();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  /** A scanned serial: its line is selected with all that is still out as # In, ready to submit. */
  const scan = (serial: string): ScanReply => {
    const found = checkInByScan(opts.lines, serial);
    if ("error" in found) return found;
    const { line, quantity } = found;
    setEntries((e) => ({ ...e, [line.id]: { ...e[line.id], selected: true, quantityIn: String(quantity) } }));
    setErrors((e) => ({ ...e, [line.id]: "" }));
    const name = line.sales_inventory.serial_number;
    return { ok: `${name}: ${quantity} in. Scan the next one, or Done and Submit Check-In.` };
  };

  /** What the line table's check-in columns take. */
  const table = active
    ? {
      entries,
      errors,
      set: (id: number, patch: Partial<CheckInEntry>) =>
        setEntries((e) => ({ ...e, [id]: { ...e[id], ...patch } })),
    }
    : undefined;

  return { active, busy, start, submit, scan, cancel: () => setActive(false), table };
}
