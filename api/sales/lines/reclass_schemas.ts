import { z } from "zod";
import { optionalInstant, quantityField } from "./checkin_schemas.ts";
import { id as boundedId, MAX_ID } from "../../lib/validate.ts";

const id = boundedId("Must be a number", { coerce: true });
const requiredId = z.union([z.number(), z.string(), z.null(), z.undefined()], { error: "Required" })
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === "") {
      ctx.addIssue({ code: "custom", message: "Required" });
      return z.NEVER;
    }
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0 || n > MAX_ID) {
      ctx.addIssue({ code: "custom", message: "Must be a number" });
      return z.NEVER;
    }
    return n;
  });

export const ReclassRow = z.object({
  sale_id: id,
  reclass_date: optionalInstant,
  from_inventory_id: id,
  to_inventory_id: requiredId,
  reclass_quantity: quantityField("Must be positive").refine((q) => q > 0, { error: "Must be positive" }),
});

/** POST /api/sales/sales/reclass. */
export const ReclassInput = z.object({
  ticket_id: id,
  rows: z.array(ReclassRow).min(1, { error: "Nothing to reclass" }).max(1000),
});
export type ReclassInput = z.infer<typeof ReclassInput>;

export const DATES_MESSAGE = "Please fill in dates for rows being reclassed";
export const NO_CHECK_IN = "Check In Before Reclassing";
export const NONE_LEFT = "No Quantity Left to Reclass";
export const checkedInMessage = (n: number) => `Checked in: ${n}`;

/** Inventory types whose rows hold stock (a charge code row is a price, never a quantity). */
export const holdsStock = (type: string): boolean => type !== "Charge Code";
/** A reclass target must be of the source's inventory type, one that holds stock. */
export const targetTypeMessage = (type: string) =>
  `Choose another ${type} serial number: a reclass target is of the same inventory type and holds stock`;
