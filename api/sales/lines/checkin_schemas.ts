import { z } from "zod";
import { atMost, id as boundedId, MAX_QUANTITY } from "../../lib/validate.ts";
import { dayStartUtc } from "../../../lib/format.ts";
import { isIsoDate } from "../../../lib/format.ts";

/**
 * A check-in, sold or reclass quantity: blank (null, "", missing) or 0 is "none" (the form's empty
 * field); anything else must be a positive whole number.
 */
export function quantityField(positiveMessage = "Must be a positive number") {
  return z.union([z.number(), z.string(), z.null(), z.undefined()]).transform((v, ctx) => {
    if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return 0;
    const n = typeof v === "number" ? v : Number(v.trim());
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: "custom", message: "Must be a number" });
      return z.NEVER;
    }
    if (n < 0) {
      ctx.addIssue({ code: "custom", message: positiveMessage });
      return z.NEVER;
    }
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: "custom", message: "Must be a whole number" });
      return z.NEVER;
    }
    if (n > MAX_QUANTITY) {
      ctx.addIssue({ code: "custom", message: atMost(MAX_QUANTITY) });
      return z.NEVER;
    }
    return n;
  });
}

/**
 * An optional date or instant, stored as YYYY-MM-DDTHH:mm:ssZ. A bare day (YYYY-MM-DD) is the start of
 * that day on the company's clock (`timeZone`), as a new line's start is: a check-in dated the 3rd in
 * Chicago is the 3rd on its screens, not 18:00 on the 2nd. A time without an offset
 * (YYYY-MM-DDTHH:mm[:ss]) is UTC, as the screens send it; one with an offset is that instant.
 */
export const optionalInstant = (timeZone: string) =>
  z.union([z.string(), z.null(), z.undefined()]).transform((v, ctx) => {
    if (v === null || v === undefined || v.trim() === "") return null;
    const s = v.trim();
    if (s.length === 10) {
      if (isIsoDate(s)) return `${dayStartUtc(s, timeZone)}:00Z`;
    } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) {
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s}Z`;
      const t = isIsoDate(s.slice(0, 10)) ? Date.parse(zoned.replace(" ", "T")) : NaN;
      if (!Number.isNaN(t)) return new Date(t).toISOString().slice(0, 19) + "Z";
    }
    ctx.addIssue({ code: "custom", message: "Must be a date" });
    return z.NEVER;
  });

/** A schema per company time zone, built once (zones are the few `timeZoneOf` lets through). */
export function perZone<T>(build: (timeZone: string) => T): (timeZone: string) => T {
  const built = new Map<string, T>();
  return (timeZone) => {
    let schema = built.get(timeZone);
    if (!schema) built.set(timeZone, schema = build(timeZone));
    return schema;
  };
}

const id = boundedId("Must be a number", { coerce: true });

/**
 * POST /api/sales/inventory/check-in: parallel arrays, one entry per line of `line_items`. Missing
 * entries of the other arrays are blank; `remove_quantities[i]` flags the quantity in of line i as
 * damaged or lost (it leaves stock). `quantity_dates` as bare days are days of `timeZone`.
 */
export const CheckInInput = perZone((timeZone) =>
  z.object({
    ticket_id: id,
    line_items: z.array(id, { error: "Required" }).min(1, { error: "Select at least one line" }).max(1000),
    quantities_in: z.array(quantityField()).max(1000).default([]),
    quantities_sold: z.array(quantityField()).max(1000).default([]),
    quantity_dates: z.array(optionalInstant(timeZone)).max(1000).default([]),
    remove_quantities: z.array(z.union([z.boolean(), z.null(), z.undefined()]).transform((v) => v === true))
      .max(1000).default([]),
  })
);
export type CheckInInput = z.infer<ReturnType<typeof CheckInInput>>;

/** The spec's cap alert. */
export const capMessage = (description: string) =>
  `All Checked-In and Sold can't exceed Quantity: ${description}`;

/** A line's standing after check-in: the spec's line status. */
export interface LineStanding {
  id: number;
  quantity: number;
  quantity_held: number;
  isSold: boolean;
  /** checked in, not counting entries flagged removed */
  checked_in: number;
  removed: number;
  sold: number;
  reclassed: number;
  not_checked_in_or_sold: number;
  handled: boolean;
}
