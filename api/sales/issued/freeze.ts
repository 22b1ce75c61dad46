// The upgrade's freeze (decision 040): approved invoices issued before this release have no issued revision.
// Migration 0032 marks the tenant (`issue_freeze_pending`) and keeps the rounding rule each was issued under;
// here each gets its revision 0 from its data now, in short write batches, off any request. Until then a
// read computes it with that same rule, so no figure moves in between.
import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../db/tenants.ts";
import { timeZoneOf, today } from "../../../lib/format.ts";
import { companies } from "../../../db/schema/mod.ts";
import { eq } from "drizzle-orm";
import { freezeIssued } from "./issue.ts";
import { yieldToEventLoop } from "../../../lib/event_loop.ts";

const BATCH = 20;

/** Whether this database still has invoices to freeze. */
async function pending(tdb: TenantDb): Promise<boolean> {
  const rows = await tdb.db.all(sql`select 1 from issue_freeze_pending limit 1`);
  return rows.length > 0;
}

/** One batch: up to BATCH approved invoices without a current revision; false when none was left. */
function freezeBatch(tdb: TenantDb): Promise<boolean> {
  return tdb.write(async (tx) => {
    const rows = await tx.all<{ id: number; company_id: number }>(sql`
      select id, company_id from tickets
      where is_invoice = 1 and status = 'APP' and invoice_number is not null
        and not exists (select 1 from issued_documents d where d.ticket_id = tickets.id and d.cancelled_at is null)
      limit ${BATCH}`);
    for (const r of rows) {
      const owner = await tx.select({ settings: companies.settings }).from(companies)
        .where(eq(companies.id, r.company_id)).get();
      await freezeIssued(
        tx,
        { company_id: r.company_id },
        r.id,
        today(new Date(), timeZoneOf(owner?.settings)),
      );
    }
    if (rows.length < BATCH) await tx.run(sql`delete from issue_freeze_pending`);
    return rows.length === BATCH;
  });
}

/** Freezes every invoice still to be frozen (the CLI's migrate, seeds, tests: awaited to the end). */
export async function freezePending(tdb: TenantDb): Promise<void> {
  if (!(await pending(tdb))) return;
  while (await freezeBatch(tdb)) await yieldToEventLoop();
}

const started = new WeakSet<TenantDb>();

/**
 * On a tenant's first request after it is opened: the freeze runs beside the requests, once per open
 * database. A failure is logged and tried again at the next open.
 */
export function freezeInBackground(tdb: TenantDb): void {
  if (started.has(tdb)) return;
  started.add(tdb);
  freezePending(tdb).catch((e) => {
    console.error(
      JSON.stringify({ level: "error", msg: "freezing issued invoices failed", error: String(e) }),
    );
  });
}
