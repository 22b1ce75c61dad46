import { and, asc, eq, lte, type Placeholder, sql } from "drizzle-orm";
import { shaped } from "../../../db/shaped.ts";
import { sales } from "../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { recordAudit } from "../inventory/audit.ts";
import { AvailabilityError, moveHold } from "./hold.ts";
import { auditExtra, ticketFor } from "./query.ts";

/** Bookings started per sweep: a bound on one write; the rest start at the next sweep. */
const SWEEP = 100;
/** The note of a write group (TenantDb.groupNotes): the second at which a sweep found nothing due. */
const NOTHING_DUE = "startDueLines: nothing due at";

/** The bookings whose start has come (by `now`) and that hold nothing yet, oldest start first. */
export function dueLines(db: TenantDatabase | Tx, now: string | Placeholder = nowStamp()) {
  return db.select({
    id: sales.id,
    ticket_id: sales.ticket_id,
    inventory_id: sales.inventory_id,
    quantity: sales.quantity,
    pending: sales.quantity_pending,
    start_date: sales.start_date,
  }).from(sales)
    // the partial index sales_pending_start_idx: its condition written out as it has it
    .where(and(sql`${sales.quantity_pending} > 0`, lte(sales.start_date, now)))
    .orderBy(asc(sales.start_date)).limit(SWEEP);
}

/** Every line save sweeps for them: the statement is built once (db/shaped.ts). */
const DUE = shaped((db) => dueLines(db, sql.placeholder("now")));

/**
 * Bookings whose start has come take their hold (decision 028): quantity_pending moves into
 * quantity_held and the row's quantity_out, guarded like any hold, audited "Line Started". A booking
 * whose stock is not back in the yard yet (an overdue return) stays pending, still reserving its
 * dates, and is tried again at the next sweep. Runs at the start of the lines' write transactions
 * (saves, check-ins), so what they check sees every booking that has begun.
 */
export async function startDueLines(tx: Tx, ctx: Pick<Ctx, "user" | "tdb">): Promise<void> {
  const { user, tdb: { groupNotes: group } } = ctx;
  // A write group's later writes skip the sweep within the second an earlier one found nothing due: no
  // write makes a booking due before its start (a line starting later than now is pending, one starting by
  // now holds at once), and a write undone by its savepoint started nothing (decision 032).
  const now = nowStamp();
  if (group.get(NOTHING_DUE) === now) return;
  const due = await DUE.all(tx, { now });
  if (!due.length) group.set(NOTHING_DUE, now);
  for (const line of due) {
    try {
      await moveHold(tx, line.inventory_id, line.pending, line.quantity);
    } catch (e) {
      if (e instanceof AvailabilityError) continue;
      throw e;
    }
    await tx.update(sales).set({
      quantity_held: sql`${sales.quantity_held} + ${line.pending}`,
      quantity_pending: 0,
      updated_at: nowStamp(),
    }).where(eq(sales.id, line.id));
    const extra = auditExtra(await ticketFor(tx, line.ticket_id), line.start_date);
    await recordAudit(tx, user, line.inventory_id, "Line Started", -line.pending, extra);
  }
}
