import type { Sale } from "../../../db/schema/mod.ts";
import { AppError } from "../../../lib/errors.ts";
import { fail } from "./save_fields.ts";

export const LOGGED_INVENTORY_MESSAGE = "A line with check-in history cannot change its inventory.";

/** One change of a row's quantity_out (and its audit row): `delta` more held, under `action`. */
export interface HoldMove {
  inventoryId: number;
  delta: number;
  action: string;
}

/**
 * What a saved line holds and the hold moves that get it there. A line holds its quantity of a row
 * that holds stock (`holds`: not a quote, not a charge code). A line with inventory-log rows holds its
 * quantity less what was checked in, sold or removed: its quantity cannot go below those (422), nor
 * can its inventory change (409). An unchanged quantity and row keep their hold; changing the row
 * releases the old hold and takes the new one.
 *
 * A line that starts later (`future`, never one with check-ins) reserves the same but holds nothing
 * yet: its part is `pending`, taken when it starts (start_due.ts, decision 028).
 */
export function holdPlan(opts: {
  before: Sale | undefined;
  inventoryId: number;
  quantity: number;
  logged: boolean;
  holds: boolean;
  future: boolean;
}): { held: number; pending: number; moves: HoldMove[] } {
  const { before, inventoryId, quantity, logged, holds, future } = opts;
  const inventoryChanged = !!before && before.inventory_id !== inventoryId;
  if (logged && inventoryChanged) throw new AppError("conflict", LOGGED_INVENTORY_MESSAGE);
  // Units already checked in, sold or removed are no longer held: a logged line's hold is its
  // quantity less those, so an edit moves the hold by the change and cannot go below them.
  const accounted = logged ? before!.quantity - before!.quantity_held : 0;
  if (logged && holds && quantity < accounted) {
    fail([{ path: "quantity", message: `Cannot be less than the ${accounted} already checked in or sold` }]);
  }
  const reserve = !before
    ? (holds ? quantity : 0)
    : logged
    ? (holds ? quantity - accounted : before.quantity_held)
    : !inventoryChanged && quantity === before.quantity
    ? before.quantity_held + before.quantity_pending
    : (holds ? quantity : 0);
  const pending = future && !logged ? reserve : 0;
  const held = reserve - pending;
  const action = before ? "Line Updated" : "Line Added";
  const moves: HoldMove[] = inventoryChanged
    ? [{ inventoryId: before!.inventory_id, delta: -before!.quantity_held, action }, {
      inventoryId,
      delta: held,
      action,
    }]
    : [{ inventoryId, delta: held - (before?.quantity_held ?? 0), action }];
  return { held, pending, moves };
}
