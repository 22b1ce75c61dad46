import { useState } from "react";
import { api } from "../../lib/api.ts";
import { showError, showSnack } from "../../lib/events.ts";
import { toZonedInput } from "../../../lib/format.ts";
import { type CheckInEntry, emptyEntry, planCheckIn } from "./lines.ts";
import type { Line } from "./types.ts";
import { checkInByScan } from "./scan_lines.ts";
import type { ScanReply } from "../../scan/ScanButton.tsx";
import { CHECK_IN_MODE, type CheckInStart, field } from "./checkin_form.ts";

/** What the last check-in or scan came to, said above the lines. */
export interface CheckInOutcome {
  notice?: string;
  alert?: string;
}

/** The page's address without `?mode=checkin`, once the mode is left (a reload then opens the plain ticket). */
function leaveModeInUrl() {
  const url = new URL(location.href);
  if (url.searchParams.get("mode") !== CHECK_IN_MODE) return;
  url.searchParams.delete("mode");
  history.replaceState(history.state, "", url);
}

/**
 * Check-in mode of a ticket's lines: `start` gives every line an empty entry dated now (the company's
 * clock), `submit` checks the entries as the spec says (field messages, the cap alert, nothing sent
 * when refused) and sends them, then leaves the mode and calls `onDone`; `scan` marks a scanned serial's
 * line for check-in. `initial`: the page came in check-in mode (`?mode=checkin`, decision 056), with the
 * entries and outcome of the form posted before the scripts came. `onFormSubmit` takes the check-in form's
 * submit once hydrated: Submit Check-In sends as JSON, the serial field's Enter selects its line.
 */
export function useCheckIn(opts: {
  ticketId: number;
  lines: Line[];
  timeZone: string;
  onDone: () => Promise<void>;
  initial?: CheckInStart;
}) {
  const [active, setActive] = useState(!!opts.initial);
  const [entries, setEntries] = useState<Record<number, CheckInEntry>>(opts.initial?.entries ?? {});
  const [errors, setErrors] = useState<Record<number, string>>(opts.initial?.errors ?? {});
  const [outcome, setOutcome] = useState<CheckInOutcome>({
    notice: opts.initial?.notice,
    alert: opts.initial?.alert,
  });
  const [busy, setBusy] = useState(false);

  const start = () => {
    const date = toZonedInput(new Date().toISOString(), opts.timeZone);
    setEntries(Object.fromEntries(opts.lines.map((l) => [l.id, emptyEntry(date)])));
    setErrors({});
    setOutcome({});
    setActive(true);
  };

  const submit = async () => {
    setOutcome({});
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
      leaveModeInUrl();
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

  /** The check-in form's submit, hydrated: the JSON call, or the serial field's line selected in place. */
  const onFormSubmit = (
    e: { preventDefault(): void; currentTarget: HTMLFormElement; nativeEvent: Event },
  ) => {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === "submit") {
      void submit();
      return;
    }
    const input = e.currentTarget.ownerDocument.querySelector<HTMLInputElement>(
      `input[form="${e.currentTarget.id}"][name="${field.serial}"]`,
    );
    const serial = input?.value.trim() ?? "";
    if (!serial) return;
    // Cleared after every scan, refused or not: the next one never lands after this one (issue 32, point 2).
    input!.value = "";
    const reply = scan(serial);
    setOutcome(reply && "error" in reply ? { alert: reply.error } : reply ? { notice: reply.ok } : {});
  };

  const cancel = () => {
    setActive(false);
    setOutcome({});
    leaveModeInUrl();
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

  return { active, busy, start, submit, scan, cancel, table, outcome, onFormSubmit };
}
