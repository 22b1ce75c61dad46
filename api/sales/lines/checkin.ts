import { and, desc, eq, sql } from "drizzle-orm";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import {
  companies,
  inventory,
  inventory_log,
  type InventoryLogEntry,
  items,
  sales,
  type Ticket,
  tickets,
  users,
} from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, type FieldError } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { type AuditExtra, recordAudit } from "../inventory/audit.ts";
import { HOLD, HOLD_AUDIT } from "../inventory/return_gate.ts";
import { returnGateOn } from "../../../lib/return_gate.ts";
import { type ItemKind, lineHandled, notCheckedInOrSold } from "../tickets/rules.ts";
import { capMessage, CheckInInput, type LineStanding } from "./checkin_schemas.ts";
import { startDueLines } from "./start_due.ts";
import { inJson } from "../../../db/in_json.ts";

/** Sums of a line's inventory log. `checked_in` leaves out entries flagged removed (the spec's rule). */
export interface LogTotals {
  checked_in: number;
  removed: number;
  sold: number;
  reclassed: number;
  /** sold quantity not yet billed back */
  sold_unbilled: number;
}

const ZERO: LogTotals = { checked_in: 0, removed: 0, sold: 0, reclassed: 0, sold_unbilled: 0 };

/** The log sums of these lines (lines without entries get zeros). */
export async function logTotals(db: TenantDatabase | Tx, saleIds: number[]): Promise<Map<number, LogTotals>> {
  const out = new Map<number, LogTotals>(saleIds.map((id) => [id, { ...ZERO }]));
  for (let i = 0; i < saleIds.length; i += 400) {
    const rows = await db.select({
      sale_id: inventory_log.sale_id,
      checked_in: sql<
        number
      >`coalesce(sum(case when ${inventory_log.remove_quantity} then 0 else ${inventory_log.quantity_in} end), 0)`,
      removed: sql<
        number
      >`coalesce(sum(case when ${inventory_log.remove_quantity} then ${inventory_log.quantity_in} else 0 end), 0)`,
      sold: sql<number>`coalesce(sum(${inventory_log.quantity_sold}), 0)`,
      reclassed: sql<number>`coalesce(sum(${inventory_log.quantity_reclassed}), 0)`,
      sold_unbilled: sql<
        number
      >`coalesce(sum(case when ${inventory_log.billed} then 0 else ${inventory_log.quantity_sold} end), 0)`,
    }).from(inventory_log).where(inJson(inventory_log.sale_id, saleIds.slice(i, i + 400)))
      .groupBy(inventory_log.sale_id);
    for (const r of rows) {
      out.set(r.sale_id, {
        checked_in: Number(r.checked_in),
        removed: Number(r.removed),
        sold: Number(r.sold),
        reclassed: Number(r.reclassed),
        sold_unbilled: Number(r.sold_unbilled),
      });
    }
  }
  return out;
}

/**
 * The spec's line status: handled when the item is expendable or a charge code, the line is sold, or
 * quantity less checked in, removed and sold is zero or less (rules.ts, lineHandled).
 */
export function standing(
  line: { id: number; quantity: number; quantity_held: number; isSold: boolean },
  totals: LogTotals,
  item: ItemKind,
): LineStanding {
  const logs = [
    { quantity_in: totals.checked_in, quantity_sold: totals.sold, remove_quantity: false },
    { quantity_in: totals.removed, quantity_sold: 0, remove_quantity: true },
  ];
  return {
    id: line.id,
    quantity: line.quantity,
    quantity_held: line.quantity_held,
    isSold: line.isSold,
    checked_in: totals.checked_in,
    removed: totals.removed,
    sold: totals.sold,
    reclassed: totals.reclassed,
    not_checked_in_or_sold: notCheckedInOrSold(line, logs),
    handled: lineHandled(line, item, logs),
  };
}

/** The ticket's names for audit rows: number, invoice number, customer, sales rep. */
export async function ticketAuditExtra(tx: Tx | TenantDatabase, ticket: Ticket): Promise<AuditExtra> {
  const customer = await tx.select({ name: companies.name }).from(companies)
    .where(eq(companies.id, ticket.customer_id)).get();
  const rep = ticket.sales_rep_id
    ? await tx.select({ name: users.name }).from(users).where(eq(users.id, ticket.sales_rep_id)).get()
    : undefined;
  return {
    ticket_number: ticket.ticket_number,
    invoice_number: ticket.invoice_number ?? "",
    customer_name: customer?.name ?? "",
    sales_rep_name: rep?.name ?? "",
  };
}

/** The ticket of a stock change: 404 when absent; quotes hold no stock and approved invoices are closed. */
export async function changeableTicket(tx: Tx, ticketId: number): Promise<Ticket> {
  const ticket = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).get();
  if (!ticket) throw new AppError("not_found", "Ticket not found.");
  if (ticket.status === "QUOTE" || ticket.isQuote) {
    throw new AppError("conflict", "A quote holds no stock: nothing to check in, sell or reclass.");
  }
  if (ticket.status === "APP") throw new AppError("conflict", "An approved invoice can't change.");
  return ticket;
}

export interface CheckInResult {
  message: string;
  lines: LineStanding[];
}

interface Planned {
  index: number;
  line: typeof sales.$inferSelect;
  type: string;
  description: string;
  expendable: boolean;
  qIn: number;
  qSold: number;
  remove: boolean;
  date: string;
  /** the return gate puts the unit in Repair until an inspection passes */
  hold: boolean;
}

/**
 * POST /api/sales/inventory/check-in: for each selected line, the quantity in comes back to stock
 * (with `remove_quantities[i]`, Itemized only, it came back damaged or lost and leaves stock), the
 * quantity sold leaves stock for good. Checked whole first (422 with each line's problem); then one
 * write transaction with guarded updates, a log entry and an audit row per change: all lines or none.
 * With the return gate on (`Sales.returnGate`) a Serialized unit checked in goes to Repair, held for
 * inspection (return_gate.ts).
 */
export async function checkIn(ctx: Ctx, body: unknown): Promise<CheckInResult> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(CheckInInput(timeZoneOf(ctx.user.company.settings)), body);
  const n = input.line_items.length;
  for (
    const [name, list] of [
      ["quantities_in", input.quantities_in],
      ["quantities_sold", input.quantities_sold],
      ["quantity_dates", input.quantity_dates],
      ["remove_quantities", input.remove_quantities],
    ] as const
  ) {
    if (list.length > n) {
      throw new AppError("invalid", `${name}: One entry per line`, [{
        path: name,
        message: "One entry per line",
      }]);
    }
  }
  const seen = new Set<number>();
  input.line_items.forEach((id, i) => {
    if (seen.has(id)) {
      throw new AppError("invalid", `line_items.${i}: Listed twice`, [{
        path: `line_items.${i}`,
        message: "Listed twice",
      }]);
    }
    seen.add(id);
  });
  const stamp = nowStamp();
  // sales.read means the owner company: its settings are the company's.
  const gate = returnGateOn(ctx.user.company.settings);
  const { ids, held } = await ctx.tdb.write(async (tx) => {
    // A booking that has started takes its hold first, so what comes back was out (decision 028).
    await startDueLines(tx, ctx);
    const ticket = await changeableTicket(tx, input.ticket_id);
    const found = await tx.select({
      line: sales,
      type: items.inventory_type,
      description: items.item_description,
      expendable: items.isExpendable,
    }).from(sales)
      .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
      .innerJoin(items, eq(items.id, inventory.item_id))
      .where(and(inJson(sales.id, input.line_items), eq(sales.ticket_id, ticket.id)));
    const byId = new Map(found.map((f) => [f.line.id, f]));
    const missing = input.line_items.find((id) => !byId.has(id));
    if (missing) throw new AppError("not_found", `Line not found on this ticket: ${missing}`);
    const totals = await logTotals(tx, input.line_items);
    const errors: FieldError[] = [];
    const plan: Planned[] = [];
    for (const [i, id] of input.line_items.entries()) {
      const f = byId.get(id)!;
      const qIn = input.quantities_in[i] ?? 0;
      const qSold = input.quantities_sold[i] ?? 0;
      const remove = input.remove_quantities[i] ?? false;
      if (f.line.isSold) {
        throw new AppError("conflict", `A sold line is not checked in again: ${f.description}`);
      }
      if (qIn + qSold === 0) {
        errors.push({ path: `quantities_in.${i}`, message: "Enter a quantity in or sold" });
        continue;
      }
      if (remove && f.type !== "Itemized") {
        errors.push({
          path: `remove_quantities.${i}`,
          message: "Remove quantity is for Itemized items only",
        });
        continue;
      }
      if (remove && qIn === 0) {
        errors.push({ path: `quantities_in.${i}`, message: "Enter the quantity to remove" });
        continue;
      }
      const t = totals.get(id)!;
      if (t.checked_in + t.removed + t.sold + qIn + qSold > f.line.quantity) {
        throw new AppError("invalid", capMessage(f.description), [{
          path: `line_items.${i}`,
          message: capMessage(f.description),
        }]);
      }
      plan.push({
        index: i,
        line: f.line,
        type: f.type,
        description: f.description,
        expendable: f.expendable,
        qIn,
        qSold,
        remove,
        date: input.quantity_dates[i] ?? stamp,
        hold: gate && f.type === "Serialized" && qIn > 0,
      });
    }
    if (errors.length) throw new AppError("invalid", `${errors[0].path}: ${errors[0].message}`, errors);
    const extra = await ticketAuditExtra(tx, ticket);
    for (const p of plan) await applyLine(ctx, tx, p, extra);
    return { ids: input.line_items, held: plan.filter((p) => p.hold).length };
  });
  const lines = await standings(ctx.db, ids);
  const message = `Checked in ${lines.length} ${lines.length === 1 ? "line" : "lines"}`;
  return {
    message: held ? `${message}; ${held} in Repair awaiting inspection (return gate)` : message,
    lines,
  };
}

/** The current standing of these lines, in this order. */
export async function standings(db: TenantDatabase, ids: number[]): Promise<LineStanding[]> {
  const rows = await db.select({ line: sales, expendable: items.isExpendable, type: items.inventory_type })
    .from(sales)
    .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
    .innerJoin(items, eq(items.id, inventory.item_id))
    .where(inJson(sales.id, ids));
  const totals = await logTotals(db, ids);
  const byId = new Map(rows.map((r) => [r.line.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => {
    const r = byId.get(id)!;
    return standing(r.line, totals.get(id)!, { isExpendable: r.expendable, inventory_type: r.type });
  });
}

/** Moves one line's quantities, guarded in the statements themselves; logs and audits each change. */
async function applyLine(ctx: Ctx, tx: Tx, p: Planned, extra: AuditExtra): Promise<void> {
  const back = p.qIn + p.qSold;
  const held = await tx.update(sales)
    .set({ quantity_held: sql`${sales.quantity_held} - ${back}`, updated_at: nowStamp() })
    .where(and(eq(sales.id, p.line.id), sql`${sales.quantity_held} >= ${back}`))
    .returning({ id: sales.id });
  if (!held.length) {
    throw new AppError("conflict", `The line holds less than that: ${p.description}`);
  }
  const auditExtra = { ...extra, start_date: p.line.start_date };
  const steps: {
    qty: number;
    leaves: boolean;
    action: string;
    log: Partial<InventoryLogEntry>;
    hold?: boolean;
  }[] = [];
  if (p.qIn > 0) {
    steps.push({
      qty: p.qIn,
      leaves: p.remove,
      action: p.remove ? "Removed" : "Check In",
      log: { quantity_in: p.qIn, remove_quantity: p.remove },
      hold: p.hold,
    });
  }
  if (p.qSold > 0) {
    steps.push({ qty: p.qSold, leaves: true, action: "Sold", log: { quantity_sold: p.qSold } });
  }
  for (const s of steps) {
    const before = await tx.select({ quantity: inventory.quantity }).from(inventory)
      .where(eq(inventory.id, p.line.inventory_id)).get();
    const done = await tx.update(inventory)
      .set({
        quantity_out: sql`${inventory.quantity_out} - ${s.qty}`,
        ...(s.leaves ? { quantity: sql`${inventory.quantity} - ${s.qty}` } : {}),
        ...(s.hold ? HOLD : {}),
        updated_by_id: ctx.user.id,
        updated_at: nowStamp(),
      })
      .where(and(eq(inventory.id, p.line.inventory_id), sql`${inventory.quantity_out} >= ${s.qty}`))
      .returning({ quantity: inventory.quantity });
    if (!done.length) throw new AppError("conflict", `Less is out than that: ${p.description}`);
    await tx.insert(inventory_log).values({
      sale_id: p.line.id,
      inventory_id: p.line.inventory_id,
      date: p.date,
      ...s.log,
      starting_quantity: before!.quantity,
      ending_quantity: done[0].quantity,
      action: s.action,
      user_id: ctx.user.id,
      user_name: ctx.user.name,
    });
    // Check In: the stock returned to the yard; Removed and Sold: the stock left the row.
    const audit = s.hold ? { ...auditExtra, ...HOLD_AUDIT } : auditExtra;
    await recordAudit(tx, ctx.user, p.line.inventory_id, s.action, s.leaves ? -s.qty : s.qty, audit);
  }
  const t = (await logTotals(tx, [p.line.id])).get(p.line.id)!;
  if (t.sold > 0 && t.checked_in + t.removed + t.sold >= p.line.quantity) {
    await tx.update(sales).set({ isSold: true }).where(eq(sales.id, p.line.id));
  }
}

/** GET /api/sales/sales/{id}/inventory-log: the line's log entries, newest first. */
export async function lineInventoryLog(ctx: Ctx, saleId: number): Promise<InventoryLogEntry[]> {
  requireAbility(ctx.user, "sales.read");
  const line = await ctx.db.select({ id: sales.id }).from(sales).where(eq(sales.id, saleId)).get();
  if (!line) throw new AppError("not_found", "Line not found.");
  return await ctx.db.select().from(inventory_log).where(eq(inventory_log.sale_id, saleId))
    .orderBy(desc(inventory_log.id));
}
