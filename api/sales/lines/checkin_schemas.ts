import { z } from "zod";
import { atMost, id as boundedId, MAX_QUANTITY } from "../../lib/validate.ts";

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

/** An optional date or instant (YYYY-MM-DD, YYYY-MM-DDTHH:mm[:ss][Z]), stored as YYYY-MM-DDTHH:mm:ssZ. */
export const optionalInstant = z.union([z.string(), z.null(), z.undefined()]).transform((v, ctx) => {
  if (v === null || v === undefined || v.trim() === "") return null;
  const s = v.trim();
  const ok = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s);
  const plain = ok && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) && s.length > 10 ? `${s.replace(" ", "T")}Z` : s;
  const t = ok ? Date.parse(plain.length === 10 ? `${plain}T00:00:00Z` : plain) : NaN;
  if (Number.isNaN(t)) {
    ctx.addIssue({ code: "custom", message: "Must be a date" });
    return z.NEVER;
  }
  return new Date(t).toISOString().slice(0, 19) + "Z";
});

const id = boundedId("Must be a number", { coerce: true });

/**
 * POST /api/sales/inventory/check-in: parallel arrays, one entry per line of `line_items`. Missing
 * entries of the other arrays are blank; `remove_quantities[i]` flags the quantity in of line i as
 * damaged or lost (it leaves stock).
 */
export const CheckInInput = z.object({
  ticket_id: id,
  line_items: z.array(id, { error: "Required" }).min(1, { error: "Select at least one line" }).max(1000),
  quantities_in: z.array(quantityField()).max(1000).default([]),
  quantities_sold: z.array(quantityField()).max(1000).default([]),
  quantity_dates: z.array(optionalInstant).max(1000).default([]),
  remove_quantities: z.array(z.union([z.boolean(), z.null(), z.undefined()]).transform((v) => v === true))
    .max(1000).default([]),
});
export type CheckInInput = z.infer<typeof CheckInInput>;

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
