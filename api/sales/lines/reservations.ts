import { and, asc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import { inventory, type Sale, sales, tickets } from "../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { formatDate } from "../../../lib/format.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { inJson } from "../../../db/in_json.ts";

/**
 * Rental reservations (decision 028). A line reserves quantity_held + quantity_pending of its row over
 * [start_date, end_date); a null end is open (until checked in). The condition is written out as the
 * partial index `sales_reservation_idx` has it, so SQLite can use that index.
 */
export const RESERVING = sql`${sales.quantity_held} + ${sales.quantity_pending} > 0`;

/** At most this many reservations are read for one check or one calendar: a bound, far above real use. */
export const MAX_BOOKINGS = 2000;

export interface Booking {
  line_id: number;
  ticket_id: number;
  ticket_number: string;
  inventory_id: number;
  serial_number: string;
  start_date: string;
  end_date: string | null;
  quantity: number;
  /** booked but not started: nothing held in quantity_out yet */
  pending: boolean;
}

/** The live reservations of `inventoryIds` that overlap [from, to) (`to` null: open), by start. */
export async function bookingsOf(
  db: TenantDatabase | Tx,
  inventoryIds: number[],
  from: string,
  to: string | null,
  exceptLineId?: number,
): Promise<Booking[]> {
  if (!inventoryIds.length) return [];
  const rows = await db.select({
    line_id: sales.id,
    ticket_id: sales.ticket_id,
    ticket_number: tickets.ticket_number,
    inventory_id: sales.inventory_id,
    serial_number: inventory.serial_number,
    start_date: sql<string>`${sales.start_date}`,
    end_date: sales.end_date,
    held: sales.quantity_held,
    pending: sales.quantity_pending,
  }).from(sales)
    .innerJoin(tickets, eq(tickets.id, sales.ticket_id))
    .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
    .where(and(
      inJson(sales.inventory_id, inventoryIds),
      RESERVING,
      to === null ? sql`${sales.start_date} is not null` : lt(sales.start_date, to),
      or(isNull(sales.end_date), gt(sales.end_date, from)),
      exceptLineId ? ne(sales.id, exceptLineId) : undefined,
    ))
    .orderBy(asc(sales.start_date), asc(sales.id))
    .limit(MAX_BOOKINGS);
  return rows.map(({ held, pending, ...b }) => ({ ...b, quantity: held + pending, pending: pending > 0 }));
}

type Span = Pick<Booking, "start_date" | "end_date" | "quantity">;

/**
 * The most reserved at one moment of [from, to) (`to` null: open) and the bookings reserving then.
 * The load only rises where a booking starts, so `from` and every start inside the range are the
 * moments to look at.
 */
export function peakOf<B extends Span>(bookings: B[], from: string, to: string | null) {
  const inside = (t: string) => t > from && (to === null || t < to);
  const moments = [from, ...bookings.map((b) => b.start_date).filter(inside)];
  let peak = { load: 0, at: from, active: [] as B[] };
  for (const at of moments) {
    const active = bookings.filter((b) => b.start_date <= at && (b.end_date === null || b.end_date > at));
    const load = active.reduce((sum, b) => sum + b.quantity, 0);
    if (load > peak.load) peak = { load, at, active };
  }
  return peak;
}

/** "T-0012 (03-01-2026 to 03-05-2026)", an open end as "until returned". */
function bookingText(b: Booking, timeZone: string): string {
  const end = b.end_date ? `to ${formatDate(b.end_date, timeZone)}` : "until returned";
  return `ticket ${b.ticket_number} (${formatDate(b.start_date, timeZone)} ${end})`;
}

/**
 * Refuses (409, a sentence naming the clashing tickets and their dates) a line that would reserve
 * `quantity` of a row over [start, end) when, at some moment of that range, the row's other
 * reservations plus this one exceed what it owns less what is at named locations. Runs inside the
 * write transaction that saves the line, so the reads see every earlier save.
 */
export async function requireFree(tx: Tx, line: {
  id?: number;
  inventoryId: number;
  start: string;
  end: string | null;
  quantity: number;
  timeZone: string;
}): Promise<void> {
  const row = await tx.select({
    serial_number: inventory.serial_number,
    capacity: sql<number>`${inventory.quantity} - ${inventory.quantity_out_location}`,
  }).from(inventory).where(eq(inventory.id, line.inventoryId)).get();
  if (!row) throw new AppError("not_found", "Inventory not found.");
  const others = await bookingsOf(tx, [line.inventoryId], line.start, line.end, line.id);
  // Past the read bound the count would be short: refuse rather than risk booking beyond the stock.
  if (others.length >= MAX_BOOKINGS) {
    throw new AppError(
      "conflict",
      `More than ${MAX_BOOKINGS} bookings of ${row.serial_number} overlap these dates.`,
    );
  }
  const peak = peakOf(others, line.start, line.end);
  if (peak.load + line.quantity <= row.capacity) return;
  const free = Math.max(row.capacity - peak.load, 0);
  const message = peak.active.length
    ? `${row.serial_number} is booked on ${
      peak.active.map((b) => bookingText(b, line.timeZone)).join(", ")
    }: ${free} of ${row.capacity} free on ${
      formatDate(peak.at, line.timeZone)
    }, this line needs ${line.quantity}.`
    : `Only ${row.capacity} of ${row.serial_number} can be booked; this line needs ${line.quantity}.`;
  throw new AppError("conflict", message, [{ path: "start_date", message }], undefined, {
    bookings: peak.active,
  });
}

/**
 * A saved line's check: a line that reserves something is checked when it is new or its row, dates or
 * reservation changed (an edit of its notes or price is not refused for an old overlap).
 */
export async function checkBooking(tx: Tx, before: Sale | undefined, line: {
  inventoryId: number;
  start: string | null;
  end: string | null;
  quantity: number;
  timeZone: string;
}): Promise<void> {
  if (line.quantity <= 0 || !line.start) return;
  const moved = !before || before.inventory_id !== line.inventoryId || before.start_date !== line.start ||
    before.end_date !== line.end || line.quantity > before.quantity_held + before.quantity_pending;
  if (moved) await requireFree(tx, { ...line, start: line.start, id: before?.id });
}

/**
 * Refuses (409, naming the bookings) a stock change that leaves a row less than its bookings from now on
 * need: after the change, what the row owns less what is at named locations against the most its
 * reservations hold at one moment from now. Quantity edits, the inventory form, transfers and reclasses
 * call it in their transaction, after their update, for the rows they lowered.
 */
export async function requireBookingsFit(tx: Tx, inventoryIds: number[], timeZone: string): Promise<void> {
  const now = nowStamp();
  const all = await bookingsOf(tx, [...new Set(inventoryIds)], now, null);
  const byRow = Map.groupBy(all, (b) => b.inventory_id);
  for (const [id, bookings] of byRow) {
    const row = (await tx.select({
      capacity: sql<number>`${inventory.quantity} - ${inventory.quantity_out_location}`,
    }).from(inventory).where(eq(inventory.id, id)).get())!;
    const peak = peakOf(bookings, now, null);
    if (peak.load <= row.capacity) continue;
    const message = `${bookings[0].serial_number || "This stock"} is booked on ${
      peak.active.map((b) => bookingText(b, timeZone)).join(", ")
    }: ${peak.load} reserved on ${formatDate(peak.at, timeZone)}, more than the ${
      Math.max(row.capacity, 0)
    } this change would leave.`;
    throw new AppError("conflict", message, undefined, undefined, { bookings: peak.active });
  }
}
