import { eq, sql } from "drizzle-orm";
import { shaped } from "../../../db/shaped.ts";
import { inventory, items, type Sale, type Tax, type Ticket } from "../../../db/schema/mod.ts";
import { maxQuantity } from "../../../lib/enums.ts";
import type { Tx } from "../../../db/client.ts";
import { AppError, type FieldError, invalid } from "../../../lib/errors.ts";
import { hoursBetween } from "../tickets/rules.ts";
import {
  END_BEFORE_START,
  LineInput,
  maxMessage,
  REQUIRED,
  UNKNOWN_INVENTORY,
  WHOLE_MESSAGE,
} from "./schemas.ts";
import { newLineRates } from "./defaults.ts";
import { LINE_ITEM_FIELDS } from "./query.ts";
import { ON_STOCK_ITEM, ON_STOCK_UNIT, units } from "../inventory/service/query.ts";
import { addDays, dayStartUtc, today } from "../../../lib/format.ts";

/** The start of today on the company's clock, as the UTC instant lines store. */
export function todayStart(timeZone: string, now = Date.now()): string {
  // The same all day: worked out once a day per zone (kept until the next day's start), not for every line
  // saved (two zone conversions, about 1.4% of a line save's thread).
  const known = startOfToday.get(timeZone);
  if (known && known.from <= now && now < known.until) return known.value;
  const day = today(new Date(now), timeZone);
  const value = `${dayStartUtc(day, timeZone)}:00Z`;
  const until = Date.parse(`${dayStartUtc(addDays(day, 1), timeZone)}:00Z`);
  if (startOfToday.size >= 1000) startOfToday.clear();
  startOfToday.set(timeZone, { from: Date.parse(value), until, value });
  return value;
}
const startOfToday = new Map<string, { from: number; until: number; value: string }>();

/** What a line's save reads of its stock row: one object (its flat order and row mapper worked out once). */
const STOCK_FOR_LINE = {
  id: inventory.id,
  minimum_rate: inventory.minimum_rate,
  additional_day: inventory.additional_day,
  rate: items.rate,
  isTaxable: items.isTaxable,
  type: items.inventory_type,
  serial_number: inventory.serial_number,
  inventory_description: inventory.inventory_description,
  status: inventory.status,
  business_unit: { id: units.id, name: units.name },
  item: LINE_ITEM_FIELDS,
};

/** Every line save reads its stock row: the statement is built once (db/shaped.ts). */
const STOCK_BY_ID = shaped((db) =>
  db.select(STOCK_FOR_LINE).from(inventory).innerJoin(items, ON_STOCK_ITEM)
    .innerJoin(units, ON_STOCK_UNIT)
    .where(eq(inventory.id, sql.placeholder("id")))
);

/**
 * The stock row a line names, as its save needs it (422 on inventory_id when unknown): its rates and
 * type, what the fit check reads (status, business unit, item names) and what the saved line shows of it,
 * in one read.
 */
export async function inventoryFor(tx: Tx, id: number) {
  const row = await STOCK_BY_ID.get(tx, { id });
  if (!row) throw invalid("inventory_id", UNKNOWN_INVENTORY);
  return row;
}
export type LineRow = Awaited<ReturnType<typeof inventoryFor>>;

/** 422 with every field's message (the first in `detail`). */
export const fail = (errors: FieldError[]): never => {
  throw new AppError("invalid", `${errors[0].path}: ${errors[0].message}`, errors);
};

/**
 * A line's stored fields from what was sent: each field is the sent value, else the stored one (an
 * update), else a new line's default (quantity 1, duration 1 or 0 in min-rate mode, discount 0, start
 * at the start of today on the company's clock (`timeZone`), rates from `newLineRates`, the ticket's taxes for a taxable item). Checked as the form
 * checks them: quantity whole (not for charge codes) and within the type's limit, a start on tickets,
 * the end not before it, a price, a minimum rate in min-rate mode; 422 naming every failing field.
 * `order` is null when neither sent nor stored (the save puts the line last).
 */
export function lineFields(
  input: LineInput,
  before: Sale | undefined,
  inv: LineRow,
  ticket: Pick<Ticket, "status" | "isQuote" | "use_min_rate_logic">,
  tax: Tax | undefined,
  timeZone: string,
) {
  const isQuote = ticket.status === "QUOTE" || ticket.isQuote;
  const minRate = ticket.use_min_rate_logic;
  /** The sent value, else the stored one (update), else the default (create). */
  const pick = <K extends keyof LineInput & keyof Sale>(key: K, dflt: Sale[K] | null): Sale[K] | null => {
    const v = input[key];
    if (v !== undefined) return v as Sale[K] | null;
    return before ? before[key] : dflt;
  };
  const errors: FieldError[] = [];
  const quantity = pick("quantity", 1);
  if (quantity === null) errors.push({ path: "quantity", message: REQUIRED });
  else if (inv.type !== "Charge Code" && !Number.isInteger(quantity)) {
    errors.push({ path: "quantity", message: WHOLE_MESSAGE });
  } else if (quantity > maxQuantity(inv.type)) {
    errors.push({ path: "quantity", message: maxMessage(maxQuantity(inv.type)) });
  }
  const start = isQuote ? null : pick("start_date", todayStart(timeZone));
  const end = isQuote ? null : pick("end_date", null);
  if (!isQuote && start === null) errors.push({ path: "start_date", message: REQUIRED });
  if (start && end && end < start) errors.push({ path: "end_date", message: END_BEFORE_START });
  const rates = newLineRates(inv, minRate);
  const price = pick("price", rates.price);
  if (price === null) errors.push({ path: "price", message: REQUIRED });
  // A line stored without a minimum rate (added before the ticket turned min-rate logic on) counts
  // it as 0; an edit that leaves the field out keeps 0 rather than answering 'Required' for a field
  // the user did not touch.
  const minimum = input.minimum_rate === undefined && before?.minimum_rate === null && minRate
    ? 0
    : pick("minimum_rate", rates.minimum_rate);
  if (minRate && minimum === null) errors.push({ path: "minimum_rate", message: REQUIRED });
  if (errors.length) fail(errors);

  return {
    order: pick("order", null),
    start_date: start,
    end_date: end,
    duration: pick("duration", minRate ? 0 : 1) ?? (minRate ? 0 : 1),
    quantity: quantity!,
    price: price!,
    minimum_rate: minimum,
    use_min_rate_logic: minRate,
    discount: pick("discount", 0),
    markup: pick("markup", null),
    state_tax: pick("state_tax", tax?.state_rate ?? null),
    county_tax: pick("county_tax", tax?.county_rate ?? null),
    city_tax: pick("city_tax", tax?.city_rate ?? null),
    hours: hoursBetween(start, end),
    notes: pick("notes", "") ?? "",
    doc: pick("doc", null),
    custom: input.custom === undefined ? before?.custom ?? {} : input.custom ?? {},
  };
}
