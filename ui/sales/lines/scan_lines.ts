import { logFigures } from "./lines.ts";
import type { Line } from "./types.ts";

/**
 * What a scanned serial does on a ticket's lines (issue 13): pure, so the check-in mode and the transfer
 * dialog say the same thing about a serial that is not on the ticket.
 */
export const notOnTicket = (serial: string) => `No line on this ticket has serial number ${serial}.`;

const serialOf = (l: Line) => l.sales_inventory.serial_number;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The ticket's lines with the serial (the inventory's serials are unique whatever their case). */
export const linesWithSerial = (lines: Line[], serial: string) =>
  lines.filter((l) => same(serialOf(l), serial));

/** What is still out on a line: its quantity less what was checked in, removed and sold (the cap). */
export function outstanding(l: Line): number {
  const f = logFigures(l);
  return Math.max(0, l.quantity - f.checkedIn - f.removed - f.sold);
}

/**
 * The line a scan checks in and the quantity (all that is still out), or why none: not on the ticket, a
 * charge code (no stock), sold, or already all in.
 */
export function checkInByScan(
  lines: Line[],
  serial: string,
): { line: Line; quantity: number } | { error: string } {
  const found = linesWithSerial(lines, serial);
  if (!found.length) return { error: notOnTicket(serial) };
  const stock = found.filter((l) => l.sales_inventory.item.inventory_type !== "Charge Code");
  if (!stock.length) return { error: `${serialOf(found[0])} is a charge code: it has nothing to check in.` };
  const unsold = stock.filter((l) => !l.isSold);
  if (!unsold.length) return { error: `${serialOf(stock[0])} is sold: a sold line is not checked in again.` };
  const out = unsold.find((l) => outstanding(l) > 0);
  if (!out) return { error: `${serialOf(unsold[0])} is already checked in in full.` };
  return { line: out, quantity: outstanding(out) };
}
