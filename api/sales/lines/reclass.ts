import { and, eq, sql } from "drizzle-orm";
import { inventory, inventory_log, items, sales } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { maxQuantity } from "../../../lib/enums.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { requireBookingsFit } from "./reservations.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { recordAudit } from "../inventory/audit.ts";
import { changeableTicket, logTotals, standings, ticketAuditExtra } from "./checkin.ts";
import type { LineStanding } from "./checkin_schemas.ts";
import {
  checkedInMessage,
  DATES_MESSAGE,
  NO_CHECK_IN,
  NONE_LEFT,
  ReclassInput,
  reclassTargetProblem,
  targetFullMessage,
} from "./reclass_schemas.ts";
import { startDueLines } from "./start_due.ts";
import { inJson } from "../../../db/in_json.ts";

export interface ReclassResult {
  message: string;
  lines: LineStanding[];
}

/**
 * POST /api/sales/sales/reclass: moves checked-in stock of a line's row to another serial of the same
 * business unit and the same inventory type (one that holds stock: never a charge code). Per line, the total reclassed stays within what was checked in
 * (removed entries not counted). All rows in one write transaction with guarded updates, a log entry
 * on the line and an audit row on both inventory rows; all or none.
 */
export async function reclass(ctx: Ctx, body: unknown): Promise<ReclassResult> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(ReclassInput(timeZoneOf(ctx.user.company.settings)), body);
  if (input.rows.some((r) => !r.reclass_date)) {
    const errors = input.rows.flatMap((r, i) =>
      r.reclass_date ? [] : [{ path: `rows.${i}.reclass_date`, message: DATES_MESSAGE }]
    );
    throw new AppError("invalid", DATES_MESSAGE, errors);
  }
  const saleIds = [...new Set(input.rows.map((r) => r.sale_id))];
  await ctx.tdb.write(async (tx) => {
    // Bookings whose start has come hold their stock before this change counts it (decision 028).
    await startDueLines(tx, ctx);
    const ticket = await changeableTicket(tx, input.ticket_id);
    const lines = await tx.select().from(sales)
      .where(and(inJson(sales.id, saleIds), eq(sales.ticket_id, ticket.id)));
    const byId = new Map(lines.map((l) => [l.id, l]));
    const totals = await logTotals(tx, saleIds);
    const extra = await ticketAuditExtra(tx, ticket);
    for (const [i, r] of input.rows.entries()) {
      const at = (f: string) => `rows.${i}.${f}`;
      const line = byId.get(r.sale_id);
      if (!line) throw new AppError("not_found", `Line not found on this ticket: ${r.sale_id}`);
      if (r.from_inventory_id !== line.inventory_id) {
        throw invalid(at("from_inventory_id"), "Not the line's inventory");
      }
      const t = totals.get(line.id)!;
      if (t.checked_in <= 0) throw invalid(at("reclass_quantity"), NO_CHECK_IN);
      const left = t.checked_in - t.reclassed;
      if (left <= 0) throw invalid(at("reclass_quantity"), NONE_LEFT);
      if (r.reclass_quantity > left) throw invalid(at("reclass_quantity"), checkedInMessage(left));
      const [from, to] = await Promise.all(
        [r.from_inventory_id, r.to_inventory_id].map((id) =>
          tx.select({ inv: inventory, type: items.inventory_type }).from(inventory)
            .innerJoin(items, eq(items.id, inventory.item_id)).where(eq(inventory.id, id)).get()
        ),
      );
      if (!to) throw new AppError("not_found", `Inventory not found: ${r.to_inventory_id}`);
      const end = (r: NonNullable<typeof to>) => ({ ...r.inv, inventory_type: r.type });
      const problem = reclassTargetProblem(end(from!), end(to));
      if (problem) throw invalid(at("to_inventory_id"), problem);
      const q = r.reclass_quantity;
      const taken = await tx.update(inventory)
        .set({
          quantity: sql`${inventory.quantity} - ${q}`,
          updated_by_id: ctx.user.id,
          updated_at: nowStamp(),
        })
        .where(and(
          eq(inventory.id, from!.inv.id),
          sql`${inventory.quantity} - ${inventory.quantity_out} - ${inventory.quantity_out_location} >= ${q}`,
        ))
        .returning({ quantity: inventory.quantity });
      if (!taken.length) {
        const now = await tx.select().from(inventory).where(eq(inventory.id, from!.inv.id)).get();
        const available = now!.quantity - now!.quantity_out - now!.quantity_out_location;
        throw invalid(at("reclass_quantity"), `Cannot exceed current quantity: ${available}`);
      }
      const max = maxQuantity(to.type);
      const added = await tx.update(inventory)
        .set({
          quantity: sql`${inventory.quantity} + ${q}`,
          updated_by_id: ctx.user.id,
          updated_at: nowStamp(),
        })
        .where(and(eq(inventory.id, to.inv.id), sql`${inventory.quantity} + ${q} <= ${max}`))
        .returning({ id: inventory.id });
      if (!added.length) throw invalid(at("reclass_quantity"), targetFullMessage(max));
      await tx.insert(inventory_log).values({
        sale_id: line.id,
        inventory_id: from!.inv.id,
        date: r.reclass_date!,
        quantity_reclassed: q,
        starting_quantity: taken[0].quantity + q,
        ending_quantity: taken[0].quantity,
        action: "Reclass",
        user_id: ctx.user.id,
        user_name: ctx.user.name,
      });
      const auditExtra = { ...extra, start_date: line.start_date };
      await recordAudit(tx, ctx.user, from!.inv.id, "Reclass Out", -q, auditExtra);
      await recordAudit(tx, ctx.user, to.inv.id, "Reclass In", q, auditExtra);
      t.reclassed += q;
    }
    await requireBookingsFit(
      tx,
      input.rows.map((r) => r.from_inventory_id),
      timeZoneOf(ctx.user.company.settings),
    );
  });
  const lines = await standings(ctx.db, saleIds);
  return { message: `Reclassed ${input.rows.length} ${input.rows.length === 1 ? "row" : "rows"}`, lines };
}
