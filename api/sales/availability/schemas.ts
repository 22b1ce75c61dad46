import { z } from "zod";
import { addDays, isIsoDate } from "../../../lib/format.ts";
import { id } from "../../lib/validate.ts";
import type { Booking } from "../lines/reservations.ts";

/** The longest range one calendar call answers: a quarter. */
export const MAX_DAYS = 92;
export const DATE_MESSAGE = "Must be a date (YYYY-MM-DD)";
export const RANGE_MESSAGE = `Must be on or after from, at most ${MAX_DAYS} days in all`;

const date = z.string({ error: DATE_MESSAGE }).refine(isIsoDate, DATE_MESSAGE);

/** GET /api/sales/availability: one item in one business unit, days `from` to `to` (both included). */
export const AvailabilityQuery = z.object({
  item_id: id("Must be an item id", { coerce: true }),
  business_unit: id("Must be a business unit id", { coerce: true }),
  from: date,
  to: date,
}).superRefine((q, ctx) => {
  if (q.to < q.from || q.to >= addDays(q.from, MAX_DAYS)) {
    ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_MESSAGE });
  }
});
export type AvailabilityQuery = z.infer<typeof AvailabilityQuery>;

/** One day of the calendar, on the company's clock. */
export interface AvailabilityDay {
  date: string;
  /** what the item's rows in the unit own (today's figure) */
  owned: number;
  /** the most reserved at one moment of the day, summed over the rows */
  reserved: number;
  /** owned less at named locations less reserved (below 0: booked beyond the stock) */
  free: number;
  /** the line ids of the bookings that reserve some of the day (see `bookings`) */
  bookings: number[];
}

export interface AvailabilityOut {
  item: { id: number; item_number: string; item_description: string; inventory_type: string };
  business_unit: { id: number; name: string };
  from: string;
  to: string;
  time_zone: string;
  rows: { id: number; serial_number: string; quantity: number; quantity_out_location: number }[];
  days: AvailabilityDay[];
  bookings: Booking[];
  /** more bookings than MAX_BOOKINGS overlap the range: the figures count only those read */
  truncated: boolean;
}
