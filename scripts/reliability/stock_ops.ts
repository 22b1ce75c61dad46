import { openClient } from "../../db/client.ts";
/**
 * Mixed stock writes on one itemized row and the checks after them, shared by the reliability script
 * (`scripts/reliability/stock_writes.ts`, one server, many rounds) and the two-instance test
 * (`api/sales/inventory/two_instances_test.ts`, two servers on one sqld): ticket line saves that hold
 * stock, line quantity edits and deletes, business-unit transfers both ways, quantity edits (patch and
 * form save) and check-ins (in and sold). The checks read the tenant database directly (a file or a
 * libSQL server's URL): nothing negative, what lines hold is what rows count out, and the audit ledger
 * replays to the final quantities.
 */
import type { Answer, Api, Check } from "./lib.ts";
import { check } from "./lib.ts";

export const START_QUANTITY = 10;
/** The answers a refused write may give: 404 a line deleted meanwhile, 409/422 not enough stock. */
export const REFUSALS = new Set([404, 409, 422]);

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: T[]): T => xs[rand(xs.length)];

export interface Line {
  id: number;
  ticketId: number;
}

/** What the answers acknowledged, to be found in the ledger. */
export interface Acknowledged {
  transferred: number;
  transfers: number;
  sold: number;
  checkedIn: number;
}

export interface Rounds {
  /** answers by kind of write and status */
  counts: Map<string, Map<number, number>>;
  acknowledged: Acknowledged;
  /** a few answers that are neither 200 nor a refusal */
  unexpected: string[];
}

/**
 * `rounds` rounds of `concurrency` writes fired at once; each write goes to one of `apis` (instances of
 * the server) in turn. Lines named by a round are ones acknowledged in earlier rounds.
 */
export async function runRounds(
  fx: Fixtures,
  apis: Api[],
  rounds: number,
  concurrency: number,
): Promise<Rounds> {
  const lines: Line[] = [];
  const counts = new Map<string, Map<number, number>>();
  const acknowledged = { transferred: 0, transfers: 0, sold: 0, checkedIn: 0 };
  const unexpected: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const ops = Array.from({ length: concurrency }, () => operation(fx, lines));
    const answers = await Promise.all(ops.map((op, i) => op.send(apis[i % apis.length])));
    answers.forEach((a, i) => {
      const op = ops[i];
      const byStatus = counts.get(op.kind) ?? new Map<number, number>();
      byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
      counts.set(op.kind, byStatus);
      if (a.status !== 200 && !REFUSALS.has(a.status) && unexpected.length < 10) {
        unexpected.push(`${op.kind} -> ${a.status} ${a.error ?? JSON.stringify(a.body)?.slice(0, 200)}`);
      }
      if (a.status === 200) op.done(a, lines, acknowledged);
    });
  }
  return { counts, acknowledged, unexpected };
}

export interface Fixtures {
  itemNumber: string;
  /** the row in unit North (starting at START_QUANTITY) and the row in unit South (starting at 0) */
  rows: [number, number];
  units: [number, number];
  openTickets: number[];
  quoteTicket: number;
}

/** Everything through the API, as a sales admin would set it up. */
export async function fixtures(api: Api): Promise<Fixtures> {
  const me = await api.ok("GET", "/api/admin/users/me");
  const customer = await api.ok("POST", "/api/companies", {
    name: "Permian Energy",
    company_type: "customer_company",
  });
  const north = await api.ok("POST", "/api/sales/categories", { model: "Business Unit", name: "North" });
  const south = await api.ok("POST", "/api/sales/categories", { model: "Business Unit", name: "South" });
  const itemNumber = "PIPE-2IN";
  const item = await api.ok("POST", "/api/sales/items", {
    item_number: itemNumber,
    item_description: "2 in. pipe joint",
    inventory_type: "Itemized",
    rate: 100,
    add_to_inventory: {
      inventory_serial_number: "",
      inventory_quantity: START_QUANTITY,
      inventory_business_unit_id: north.id,
    },
  });
  const list = await api.ok("GET", `/api/sales/inventory?search_item_number=${itemNumber}`);
  const northRow = list.results.find((r: { business_unit_id: number }) => r.business_unit_id === north.id);
  if (!northRow) throw new Error(`no inventory row made for ${itemNumber}: ${JSON.stringify(list)}`);
  const southRow = await api.ok("POST", "/api/sales/inventory", {
    item_id: item.id,
    business_unit_id: south.id,
    quantity: 0,
  });
  const ticket = (isQuote: boolean) =>
    api.ok("POST", "/api/sales/tickets", {
      customer_id: customer.id,
      sales_rep_id: me.id,
      use_min_rate_logic: false,
      ...(isQuote ? { status: "QUOTE", isQuote: true } : {}),
    });
  const openTickets = [];
  for (let i = 0; i < 5; i++) openTickets.push((await ticket(false)).id);
  const quoteTicket = (await ticket(true)).id;
  return {
    itemNumber,
    rows: [northRow.id, southRow.id],
    units: [north.id, south.id],
    openTickets,
    quoteTicket,
  };
}

export interface Op {
  kind: string;
  send(api: Api): Promise<Answer>;
  done(a: Answer, lines: Line[], ack: Acknowledged): void;
}

/** One random write; lines it names are ones acknowledged in earlier rounds (they may go meanwhile). */
export function operation(fx: Fixtures, lines: Line[]): Op {
  const r = Math.random();
  const row = pick([0, 1]);
  const noop = () => {};
  if (r < 0.3 || lines.length === 0) {
    // A new line: mostly on open tickets (holds stock), sometimes on the quote (holds nothing).
    const ticketId = Math.random() < 0.1 ? fx.quoteTicket : pick(fx.openTickets);
    return {
      kind: ticketId === fx.quoteTicket ? "line create (quote)" : "line create",
      send: (api) =>
        api.call("POST", "/api/sales/sales", {
          json: { ticket_id: ticketId, inventory_id: fx.rows[row], quantity: 1 + rand(3) },
        }),
      done: (a, ls) => ls.push({ id: a.body.id, ticketId }),
    };
  }
  if (r < 0.42) {
    const line = pick(lines);
    return {
      kind: "line quantity edit",
      send: (api) => api.call("PUT", "/api/sales/sales", { json: { id: line.id, quantity: rand(5) } }),
      done: noop,
    };
  }
  if (r < 0.5) {
    const line = pick(lines);
    return {
      kind: "line delete",
      send: (api) => api.call("DELETE", `/api/sales/sales/${line.id}`),
      done: (_a, ls) => {
        const i = ls.indexOf(line);
        if (i >= 0) ls.splice(i, 1);
      },
    };
  }
  if (r < 0.65) {
    const quantity = 1 + rand(3);
    return {
      kind: "business-unit transfer",
      send: (api) =>
        api.call("POST", "/api/sales/inventory/business-unit-transfer", {
          json: { inventory_id: fx.rows[row], to_business_unit_id: fx.units[1 - row], quantity },
        }),
      done: (_a, _l, ack) => {
        ack.transfers++;
        ack.transferred += quantity;
      },
    };
  }
  if (r < 0.8) {
    // Quantity edits keep stock coming back (sales take it away); half as the grid's patch, half as the form.
    const quantity = 5 + rand(25);
    return Math.random() < 0.5
      ? {
        kind: "quantity patch",
        send: (api) =>
          api.call("PATCH", "/api/sales/inventory/quantity", { json: [{ id: fx.rows[row], quantity }] }),
        done: noop,
      }
      : {
        kind: "inventory form save",
        send: (api) => api.call("PUT", "/api/sales/inventory", { json: { id: fx.rows[row], quantity } }),
        done: noop,
      };
  }
  const line = pick(lines);
  const sold = Math.random() < 0.3;
  return {
    kind: sold ? "check-in (sold)" : "check-in (in)",
    send: (api) =>
      api.call("POST", "/api/sales/inventory/check-in", {
        json: {
          ticket_id: line.ticketId,
          line_items: [line.id],
          [sold ? "quantities_sold" : "quantities_in"]: [1],
        },
      }),
    done: (_a, _l, ack) => {
      if (sold) ack.sold++;
      else ack.checkedIn++;
    },
  };
}

/** Actions whose quantity_change is the change of the row's quantity (what the business owns). */
const QUANTITY_ACTIONS = new Set([
  "Created",
  "Updated",
  "Quantity Update",
  "Batch Upload",
  "Business Unit Transfer Out",
  "Business Unit Transfer In",
  "Sold",
  "Removed",
  "Deleted",
  "Reclass Out",
  "Reclass In",
  "Used on Invoice",
  "Invoice Re-opened",
]);
/** Actions whose quantity_change is the change of what lines hold, as available stock (-held). */
const HOLD_ACTIONS = new Set([
  "Line Added",
  "Line Updated",
  "Line Deleted",
  "Line Started",
  "Check In",
  "Out on Ticket",
  "Returned (Ticket Deleted)",
]);

export async function verify(
  url: string,
  fx: Fixtures,
  ack: Acknowledged,
): Promise<Check[]> {
  const db = await openClient(url);
  try {
    const q = async (sql: string, args: (number | string)[] = []) => (await db.execute({ sql, args })).rows;
    const checks: Check[] = [];
    const rows = await q(
      "select id, quantity, quantity_out, quantity_out_location from inventory where id in (?, ?)",
      fx.rows,
    );
    const negative = rows.filter((r) =>
      Number(r.quantity) < 0 || Number(r.quantity_out) < 0 || Number(r.quantity_out_location) < 0 ||
      Number(r.quantity) - Number(r.quantity_out) - Number(r.quantity_out_location) < 0
    );
    checks.push(check(
      "0 oversell: no negative quantity, quantity_out or quantity_available",
      negative.length === 0,
      rows.map((r) =>
        `row ${r.id}: quantity ${r.quantity}, out ${r.quantity_out}, available ${
          Number(r.quantity) - Number(r.quantity_out) - Number(r.quantity_out_location)
        }`
      ).join("; "),
    ));

    // What the lines of non-quote tickets hold is exactly what each row counts out; quotes hold nothing.
    const held = await q(
      `select s.inventory_id, sum(s.quantity_held) held,
              sum(case when t.status = 'QUOTE' or t.is_quote then s.quantity_held else 0 end) on_quotes,
              sum(case when s.quantity_held < 0 then 1 else 0 end) bad,
              count(*) lines
         from sales s join tickets t on t.id = s.ticket_id group by s.inventory_id`,
    );
    const heldBy = new Map(held.map((h) => [Number(h.inventory_id), h]));
    const mismatch = rows.filter((r) =>
      Number(heldBy.get(Number(r.id))?.held ?? 0) !== Number(r.quantity_out)
    );
    const onQuotes = held.reduce((n, h) => n + Number(h.on_quotes), 0);
    const bad = held.reduce((n, h) => n + Number(h.bad), 0);
    checks.push(check(
      "lines on tickets hold exactly each row's quantity_out; quotes hold 0",
      mismatch.length === 0 && onQuotes === 0 && bad === 0,
      `${held.reduce((n, h) => n + Number(h.lines), 0)} lines; ` +
        rows.map((r) => `row ${r.id} out ${r.quantity_out} = held ${heldBy.get(Number(r.id))?.held ?? 0}`)
          .join(", ") +
        `; held on quotes ${onQuotes}; lines holding <0 ${bad}`,
    ));

    // Each line of a non-quote ticket still has out its quantity less what came back or was sold, and
    // that is what it should hold. Holding more strands stock (check-in caps at the quantity, so it can
    // never come back); holding less leaves part of what the ticket has out counted as available. A
    // booking not started yet holds its part later (quantity_pending, decision 028).
    const accounts = await q(
      `select s.id, s.quantity, s.quantity_held + s.quantity_pending held,
              coalesce(sum(l.quantity_in), 0) qin, coalesce(sum(l.quantity_sold), 0) sold
         from sales s join tickets t on t.id = s.ticket_id left join inventory_log l on l.sale_id = s.id
        where t.status <> 'QUOTE' and not t.is_quote group by s.id`,
    );
    const remaining = (a: (typeof accounts)[number]) => Number(a.quantity) - Number(a.qin) - Number(a.sold);
    const stranded = accounts.filter((a) => Number(a.held) > Math.max(remaining(a), 0));
    const unheld = accounts.filter((a) => Number(a.held) < remaining(a));
    const belowReturned = accounts.filter((a) => remaining(a) < 0);
    const example = (a: (typeof accounts)[number]) =>
      `line ${a.id}: quantity ${a.quantity}, checked in ${a.qin}, sold ${a.sold}, holds ${a.held}`;
    checks.push(check(
      "each line holds its quantity less what was checked in or sold",
      stranded.length === 0 && unheld.length === 0,
      `${accounts.length} lines; ${stranded.length} hold more (stranded: ${
        stranded.reduce((n, a) => n + Number(a.held) - Math.max(remaining(a), 0), 0)
      } units check-in cannot return), ${unheld.length} hold less (${
        unheld.reduce((n, a) => n + remaining(a) - Number(a.held), 0)
      } units out on tickets but counted available); ${belowReturned.length} with a quantity below what ` +
        `already came back` + [...stranded.slice(0, 2), ...unheld.slice(0, 2)].map((a) =>
          `; e.g. ${example(a)}`
        )
        .join(""),
    ));

    // The ledger: replaying each row's audit rows in order gives its quantity at every step and at the
    // end, and its available quantity at the end.
    const audit = await q(
      "select id, inventory_id, action, quantity, quantity_change from inventory_audit order by id",
    );
    const unknown = [...new Set(audit.map((a) => String(a.action)))]
      .filter((a) => !QUANTITY_ACTIONS.has(a) && !HOLD_ACTIONS.has(a));
    const replay = new Map<number, { quantity: number; out: number; stepErrors: number; naive: number }>();
    for (const a of audit) {
      const id = Number(a.inventory_id);
      const r = replay.get(id) ?? { quantity: 0, out: 0, stepErrors: 0, naive: 0 };
      const change = Number(a.quantity_change);
      r.naive += change;
      if (QUANTITY_ACTIONS.has(String(a.action))) r.quantity += change;
      if (HOLD_ACTIONS.has(String(a.action))) r.out -= change;
      // Sold (and Removed) stock was held by its line: it leaves quantity and quantity_out together.
      if (["Sold", "Removed", "Used on Invoice", "Invoice Re-opened"].includes(String(a.action))) {
        r.out += change;
      }
      if (Number(a.quantity) !== r.quantity) r.stepErrors++;
      replay.set(id, r);
    }
    const ledger = rows.map((row) => {
      const r = replay.get(Number(row.id)) ?? { quantity: 0, out: 0, stepErrors: 0, naive: 0 };
      return { row, r, ok: r.quantity === Number(row.quantity) && r.out === Number(row.quantity_out) };
    });
    checks.push(check(
      "audit ledger replays to the final quantity and quantity_out of each row",
      unknown.length === 0 && ledger.every((l) => l.ok),
      `${audit.length} audit rows; ` + ledger.map((l) =>
        `row ${l.row.id}: ledger quantity ${l.r.quantity} / stored ${l.row.quantity}, ` +
        `ledger out ${l.r.out} / stored ${l.row.quantity_out}`
      ).join("; ") + (unknown.length ? `; unknown actions ${unknown.join(", ")}` : ""),
    ));
    const stepErrors = ledger.reduce((n, l) => n + l.r.stepErrors, 0);
    checks.push(check(
      "each audit row's quantity is the running sum of the changes before it",
      stepErrors === 0,
      `${stepErrors} audit rows out of step`,
    ));

    // Every acknowledged change is in the ledger, and only those.
    const sum = async (action: string) =>
      Number(
        (await q(
          "select count(*) n, coalesce(sum(quantity_change), 0) s from inventory_audit where action = ?",
          [
            action,
          ],
        ))[0].s,
      );
    const count = async (action: string) =>
      Number((await q("select count(*) n from inventory_audit where action = ?", [action]))[0].n);
    const outRows = await count("Business Unit Transfer Out");
    const outSum = -(await sum("Business Unit Transfer Out"));
    const inSum = await sum("Business Unit Transfer In");
    const soldSum = -(await sum("Sold"));
    const inCount = await sum("Check In");
    checks.push(check(
      "acknowledged transfers and check-ins match the ledger",
      outRows === ack.transfers && outSum === ack.transferred && inSum === ack.transferred &&
        soldSum === ack.sold && inCount === ack.checkedIn,
      `transfers ${ack.transfers} acknowledged / ${outRows} audited (qty ${ack.transferred} / out ${outSum}, ` +
        `in ${inSum}); sold ${ack.sold} / ${soldSum}; checked in ${ack.checkedIn} / ${inCount}`,
    ));
    // For the record (not a check): the plain sum of quantity_change mixes the two meanings above.
    const naive = ledger.reduce((n, l) => n + l.r.naive, 0);
    const totalQuantity = rows.reduce((n, r) => n + Number(r.quantity), 0);
    const totalAvailable = rows.reduce(
      (n, r) => n + Number(r.quantity) - Number(r.quantity_out) - Number(r.quantity_out_location),
      0,
    );
    console.log(
      `  note: plain sum of quantity_change ${naive}; final quantity ${totalQuantity}, available ${totalAvailable}, ` +
        `sold ${soldSum} (plain sum = available - sold)`,
    );
    return checks;
  } finally {
    db.close();
  }
}
