/**
 * The stock invariant of decision 039, read straight from a tenant's tables (any tenant: a test's, the
 * demo, the bench's large one), for tests:
 *
 * 1. Every inventory row's `quantity_out` is the sum of `quantity_held` of the lines of tickets that are
 *    not quotes (quotes hold nothing).
 * 2. Every such line holds (`quantity_held + quantity_pending`, a booking not started counted, decision
 *    028) its quantity less what came back (log `quantity_in`, removed units included: they left the line
 *    too) and what was sold (log `quantity_sold`, an expendable used up on its invoice included); nothing
 *    when it is a charge code or sold, or an expendable on an approved invoice.
 * 3. A line the screens show as "Fully Checked-In!" holds nothing.
 * 4. The audit ledger replays to each row's stored quantity and quantity_out, and each audit row's
 *    `quantity` is the running quantity at that step (`quantity_change` has the meanings of
 *    docs/reliability.md: the change of what is owned, of what is available, or both at once when held
 *    stock leaves).
 */
import { inventoryStatus } from "../../api/sales/lines/query.ts";
import { HANDLED } from "../../api/sales/lines/rules.ts";
import type { InventoryLogEntry } from "../../db/schema/mod.ts";

/** Runs one read-only statement and answers its rows. */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** quantity_change is the change of what the row owns (quantity). */
export const QUANTITY_ACTIONS = new Set([
  "Created",
  "Updated",
  "Quantity Update",
  "Batch Upload",
  "Business Unit Transfer Out",
  "Business Unit Transfer In",
  "Deleted",
  "Reclass Out",
  "Reclass In",
]);
/** quantity_change is the change of what is available as lines hold or release (-held). */
export const HOLD_ACTIONS = new Set([
  "Line Added",
  "Line Updated",
  "Line Deleted",
  "Line Started",
  "Check In",
  "Out on Ticket",
  "Returned (Ticket Deleted)",
]);
/** Held stock leaves the row (or comes back to a line): quantity and quantity_out move together. */
export const LEAVING_ACTIONS = new Set(["Sold", "Removed", "Used on Invoice", "Invoice Re-opened"]);
/** The stock repair of migration 0034: quantity_change is the change of quantity_out, negated. */
export const REPAIR_ACTIONS = new Set(["Stock Repair (hold)"]);

export interface Violation {
  rule: string;
  detail: string;
}

const n = (v: unknown) => Number(v ?? 0);

/** Every violation of the invariant (none: it holds), at most `limit` per rule. */
export async function stockViolations(
  q: Query,
  opts: { limit?: number; ledger?: boolean } = {},
): Promise<Violation[]> {
  const limit = opts.limit ?? 20;
  const out: Violation[] = [];
  const counts = new Map<string, number>();
  const add = (rule: string, detail: string) => {
    const c = (counts.get(rule) ?? 0) + 1;
    counts.set(rule, c);
    if (c <= limit) out.push({ rule, detail });
  };

  // 1. quantity_out = what non-quote lines hold.
  const rows = await q(
    `select i.id, i.quantity, i.quantity_out, i.quantity_out_location,
            coalesce(h.held, 0) held
       from inventory i
       left join (select s.inventory_id, sum(s.quantity_held) held from sales s
                    join tickets t on t.id = s.ticket_id
                   where t.status <> 'QUOTE' and not t.is_quote group by s.inventory_id) h
         on h.inventory_id = i.id`,
  );
  for (const r of rows) {
    if (n(r.quantity_out) !== n(r.held)) {
      add(
        "quantity_out = held by lines",
        `row ${r.id}: quantity_out ${r.quantity_out}, lines hold ${r.held}`,
      );
    }
  }
  const onQuotes = await q(
    `select s.id, s.quantity_held, s.quantity_pending from sales s join tickets t on t.id = s.ticket_id
      where (t.status = 'QUOTE' or t.is_quote) and s.quantity_held + s.quantity_pending <> 0`,
  );
  for (const l of onQuotes) add("quotes hold nothing", `line ${l.id} holds ${l.quantity_held}`);

  // 2 and 3. Each line holds what is still out; one shown checked in holds nothing.
  const lines = await q(
    `select s.id, s.quantity, s.quantity_held, s.quantity_pending, s.is_sold, t.status, t.ticket_number,
            it.is_expendable, it.inventory_type, it.item_number,
            coalesce(l.qin, 0) qin, coalesce(l.qin_kept, 0) qin_kept, coalesce(l.sold, 0) sold
       from sales s
       join tickets t on t.id = s.ticket_id
       join inventory i on i.id = s.inventory_id
       join items it on it.id = i.item_id
       left join (select sale_id, sum(quantity_in) qin,
                         sum(case when remove_quantity then 0 else quantity_in end) qin_kept,
                         sum(quantity_sold) sold
                    from inventory_log group by sale_id) l on l.sale_id = s.id
      where t.status <> 'QUOTE' and not t.is_quote`,
  );
  for (const l of lines) {
    const held = n(l.quantity_held) + n(l.quantity_pending);
    const charge = l.inventory_type === "Charge Code";
    const expendable = !!n(l.is_expendable);
    const sold = !!n(l.is_sold);
    const remaining = n(l.quantity) - n(l.qin) - n(l.sold);
    const expected = charge || sold || (expendable && l.status === "APP") ? 0 : Math.max(remaining, 0);
    const name = `line ${l.id} (${l.ticket_number} ${l.status}, ${l.item_number}${
      expendable ? ", expendable" : ""
    })`;
    if (held !== expected) {
      add(
        "line holds quantity - checked in - sold",
        `${name}: quantity ${l.quantity}, in ${l.qin}, sold ${l.sold}, holds ${held}, should hold ${expected}`,
      );
    }
    if (n(l.quantity_held) < 0 || n(l.quantity_pending) < 0) add("no negative hold", name);
    const logs = [
      { quantity_in: n(l.qin_kept), quantity_sold: n(l.sold), remove_quantity: false },
      { quantity_in: n(l.qin) - n(l.qin_kept), quantity_sold: 0, remove_quantity: true },
    ] as InventoryLogEntry[];
    const status = inventoryStatus(
      {
        quantity: n(l.quantity),
        isSold: sold,
        quantity_held: n(l.quantity_held),
        quantity_pending: n(l.quantity_pending),
      },
      { isExpendable: expendable, inventory_type: String(l.inventory_type) },
      logs,
    );
    if (status === HANDLED && held !== 0) {
      add("a line shown checked in holds nothing", `${name} holds ${held}`);
    }
  }

  // 4. The audit ledger (left out for data made without audit rows, e.g. by factories).
  if (opts.ledger === false) return finish(out, counts, limit);
  const audit = await q(
    "select id, inventory_id, action, quantity, quantity_change from inventory_audit order by id",
  );
  const replay = new Map<number, { quantity: number; out: number }>();
  for (const a of audit) {
    if (a.inventory_id === null) continue;
    const id = n(a.inventory_id);
    const r = replay.get(id) ?? { quantity: 0, out: 0 };
    const change = n(a.quantity_change);
    const action = String(a.action);
    if (QUANTITY_ACTIONS.has(action)) r.quantity += change;
    else if (HOLD_ACTIONS.has(action) || REPAIR_ACTIONS.has(action)) r.out -= change;
    else if (LEAVING_ACTIONS.has(action)) {
      r.quantity += change;
      r.out += change;
    } else if (change !== 0) add("audit actions known", `audit ${a.id}: ${action} changes ${change}`);
    if (n(a.quantity) !== r.quantity) {
      add(
        "each audit row's quantity is the running quantity",
        `audit ${a.id} (${action}, row ${id}): says ${a.quantity}, ledger ${r.quantity}`,
      );
    }
    replay.set(id, r);
  }
  for (const r of rows) {
    const l = replay.get(n(r.id)) ?? { quantity: 0, out: 0 };
    if (l.quantity !== n(r.quantity) || l.out !== n(r.quantity_out)) {
      add(
        "the audit ledger replays to quantity and quantity_out",
        `row ${r.id}: ledger quantity ${l.quantity} / stored ${r.quantity}, ledger out ${l.out} / stored ${r.quantity_out}`,
      );
    }
  }
  return finish(out, counts, limit);
}

function finish(out: Violation[], counts: Map<string, number>, limit: number): Violation[] {
  for (const [rule, c] of counts) {
    if (c > limit) out.push({ rule, detail: `... ${c - limit} more` });
  }
  return out;
}

/** The violations as lines of text (empty: the invariant holds). */
export const describe = (v: Violation[]) => v.map((x) => `${x.rule}: ${x.detail}`).join("\n");
