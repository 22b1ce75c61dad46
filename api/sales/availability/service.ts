import { and, asc, eq, inArray } from "drizzle-orm";
import { categories, inventory, items } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { addDays, dayStartUtc, timeZoneOf } from "../../../lib/format.ts";
import { type Booking, bookingsOf, MAX_BOOKINGS, peakOf } from "../lines/reservations.ts";
import type { AvailabilityDay, AvailabilityOut, AvailabilityQuery } from "./schemas.ts";

/** An item's rows in one unit: far above any real count, a bound on one answer. */
const MAX_ROWS = 1000;

/** Where a day begins on the company's clock, as the instant lines store. */
const dayStart = (day: string, timeZone: string) => `${dayStartUtc(day, timeZone)}:00Z`;

/**
 * GET /api/sales/availability (the owner company's staff): per day from `from` to `to` on the
 * company's clock, what the item's rows in the business unit own, the most reserved at one moment of
 * the day (decision 028: each line reserves quantity_held + quantity_pending over [start, end)), what
 * is free, and the bookings. Reads the rows through the item's index and their live reservations
 * through sales_reservation_idx: no scan of lines returned long ago.
 */
export async function rentalAvailability(ctx: Ctx, q: AvailabilityQuery): Promise<AvailabilityOut> {
  requireAbility(ctx.user, "sales.read");
  const timeZone = timeZoneOf(ctx.user.company.settings);
  const item = await ctx.db.select({
    id: items.id,
    item_number: items.item_number,
    item_description: items.item_description,
    inventory_type: items.inventory_type,
  }).from(items).where(eq(items.id, q.item_id)).get();
  if (!item) throw new AppError("not_found", "Item not found.");
  const unit = await ctx.db.select({ id: categories.id, name: categories.name }).from(categories)
    .where(and(eq(categories.id, q.business_unit), eq(categories.model, "Business Unit"))).get();
  if (!unit) throw new AppError("not_found", "Business unit not found.");
  const rows = await ctx.db.select({
    id: inventory.id,
    serial_number: inventory.serial_number,
    quantity: inventory.quantity,
    quantity_out_location: inventory.quantity_out_location,
  }).from(inventory)
    .where(and(eq(inventory.item_id, item.id), eq(inventory.business_unit_id, unit.id)))
    .orderBy(asc(inventory.serial_number), asc(inventory.id)).limit(MAX_ROWS);
  const end = dayStart(addDays(q.to, 1), timeZone);
  const bookings = await bookingsOf(ctx.db, rows.map((r) => r.id), dayStart(q.from, timeZone), end);
  return {
    item,
    business_unit: unit,
    from: q.from,
    to: q.to,
    time_zone: timeZone,
    rows,
    days: calendarDays(q, timeZone, rows, bookings),
    bookings,
    truncated: bookings.length >= MAX_BOOKINGS,
  };
}

/** Each day's figures: every row's peak inside the day, summed, so two back-to-back bookings count once. */
function calendarDays(
  q: AvailabilityQuery,
  timeZone: string,
  rows: AvailabilityOut["rows"],
  bookings: Booking[],
): AvailabilityDay[] {
  const owned = rows.reduce((sum, r) => sum + r.quantity, 0);
  const capacity = owned - rows.reduce((sum, r) => sum + r.quantity_out_location, 0);
  const byRow = Map.groupBy(bookings, (b) => b.inventory_id);
  const days: AvailabilityDay[] = [];
  for (let date = q.from; date <= q.to; date = addDays(date, 1)) {
    const start = dayStart(date, timeZone);
    const end = dayStart(addDays(date, 1), timeZone);
    const overlaps = (b: Booking) => b.start_date < end && (b.end_date === null || b.end_date > start);
    let reserved = 0;
    for (const list of byRow.values()) reserved += peakOf(list.filter(overlaps), start, end).load;
    const ids = bookings.filter(overlaps).map((b) => b.line_id);
    days.push({ date, owned, reserved, free: capacity - reserved, bookings: ids });
  }
  return days;
}

/**
 * The business units that hold rows of an item, by name: the calendar page's choice of unit. The
 * item's rows come from its index (inventory_item_serial_idx); units are few.
 */
export async function unitsOfItem(ctx: Ctx, itemId: number): Promise<{ id: number; name: string }[]> {
  requireAbility(ctx.user, "sales.read");
  const held = ctx.db.selectDistinct({ id: inventory.business_unit_id }).from(inventory)
    .where(eq(inventory.item_id, itemId));
  return await ctx.db.select({ id: categories.id, name: categories.name }).from(categories)
    .where(inArray(categories.id, held)).orderBy(asc(categories.name), asc(categories.id));
}
