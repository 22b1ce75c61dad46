import { z } from "zod";
import { optionalInstant, perZone, quantityField } from "./checkin_schemas.ts";
import { id as boundedId, MAX_ID } from "../../lib/validate.ts";
import { maxQuantity } from "../../../lib/enums.ts";

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

/** POST /api/sales/sales/reclass; a `reclass_date` given as a bare day is a day of `timeZone`. */
export const ReclassInput = perZone((timeZone) =>
  z.object({
    ticket_id: id,
    rows: z.array(z.object({
      sale_id: id,
      reclass_date: optionalInstant(timeZone),
      from_inventory_id: id,
      to_inventory_id: requiredId,
      reclass_quantity: quantityField("Must be positive").refine((q) => q > 0, { error: "Must be positive" }),
    })).min(1, { error: "Nothing to reclass" }).max(1000),
  })
);
export type ReclassInput = z.infer<ReturnType<typeof ReclassInput>>;

export const DATES_MESSAGE = "Please fill in dates for rows being reclassed";
export const NO_CHECK_IN = "Check In Before Reclassing";
export const NONE_LEFT = "No Quantity Left to Reclass";
export const checkedInMessage = (n: number) => `Checked in: ${n}`;

/** Inventory types whose rows hold stock (a charge code row is a price, never a quantity). */
export const holdsStock = (type: string): boolean => type !== "Charge Code";
/** A reclass target must be of the source's inventory type, one that holds stock. */
export const targetTypeMessage = (type: string) =>
  `Choose another ${type} serial number: a reclass target is of the same inventory type and holds stock`;
export const OTHER_UNIT_MESSAGE = "Choose a serial number of the same business unit";
export const SAME_SERIAL_MESSAGE = "Choose a different serial number";
export const targetFullMessage = (max: number) => `The target row cannot hold more than ${max}`;

/** A stock row as far as a reclass needs it: its unit, serial, inventory type and what it holds. */
export interface ReclassEnd {
  business_unit_id: number;
  serial_number: string;
  inventory_type: string;
  quantity: number;
}

/**
 * Why `to` cannot take stock reclassed from `from`, or undefined when it can: a reclass target is of
 * the same business unit, another serial number (case aside), and the same inventory type, one that
 * holds stock, with room for at least 1 more (a Serialized row already holding 1 is full). The server
 * refuses by it; the reclass picker offers only rows it passes.
 */
export function reclassTargetProblem(from: ReclassEnd, to: ReclassEnd): string | undefined {
  if (to.business_unit_id !== from.business_unit_id) return OTHER_UNIT_MESSAGE;
  if (to.serial_number.toLowerCase() === from.serial_number.toLowerCase()) return SAME_SERIAL_MESSAGE;
  if (to.inventory_type !== from.inventory_type || !holdsStock(to.inventory_type)) {
    return targetTypeMessage(from.inventory_type);
  }
  const max = maxQuantity(to.inventory_type);
  if (to.quantity >= max) return targetFullMessage(max);
  return undefined;
}
