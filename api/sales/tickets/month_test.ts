// Issue 5's acceptance: a month of tickets through the real HTTP API to approved invoices, with
// every figure checked against an exact decimal computation made here (not by rules.ts).
import assert from "node:assert/strict";
import { inventory, taxes, templates } from "../../../db/schema/mod.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import {
  centsToNumber,
  exactLine,
  exactTotals,
  fromFloat,
  type ModelMoney,
  prng,
  toCents,
  usd,
} from "./month_fixtures.ts";

type Kind = "A" | "B" | "C" | "D" | "S";
interface Row {
  id: number;
  kind: Kind;
  start: number;
  rate: number;
  minimum_rate: number | null;
  additional_day: number | null;
  taxable: boolean;
  holds: boolean;
  sold: number;
  removed: number;
}
interface Tax {
  id: number;
  state: number;
  county: number;
  city: number;
}
interface MLine extends ModelMoney {
  id: number;
  row: Row;
  held: number;
  done: number;
}
interface MTicket {
  id: number;
  day: number;
  number: string;
  minRate: boolean;
  tax: Tax | null;
  quote: boolean;
  token: string;
  lines: MLine[];
  status: string;
  invoice?: string;
}

const TICKETS = "/api/sales/tickets";
const LINES = "/api/sales/sales";
const BLOCKED = "Request Approval is blocked until every line is checked in or sold.";
const APPROVERS_ONLY = "Only a user with approval authority can approve or re-open an invoice.";
const pad = (n: number) => String(n).padStart(5, "0");
const day = (d: number) => `2026-03-${String(Math.min(d, 31)).padStart(2, "0")}`;

Deno.test("month - thirty days of tickets to approved invoices, right to the cent", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const rnd = prng(20260301);
    // deno-lint-ignore no-explicit-any
    const call = (token: string, method: string, path: string, json?: unknown, status = 200): Promise<any> =>
      env.json(path, { token, method, json, status });

    // Reference data: customers, reps, an approver, taxes, a business unit, items, stock, a template.
    const customers = await Promise.all(
      ["Permian Energy", "Delaware Basin Oil", "Eagle Ford Partners"].map((name) =>
        makeCompany(db, { name })
      ),
    );
    const reps = [
      await env.userWithToken({ name: "Rita Rep", isSalesRep: true }),
      await env.userWithToken({ name: "Sam Seller", isSalesRep: true }),
    ];
    const approver = (await env.userWithToken({ name: "Ada Approver", permissions: ["approval-authority"] }))
      .token;
    // Edit on line rows is sales-admin's: the office edits the lines the reps added.
    const office = (await env.userWithToken({ name: "Olga Office", permissions: ["sales-admin"] })).token;
    const taxRows: Tax[] = [];
    for (const [state, county, city] of [[6.25, 0.5, 1.75], [4.125, 1.375, 2.005]]) {
      const [t] = await db.insert(taxes).values({
        company_id: 1,
        name: `Tax ${state}`,
        state_rate: state,
        county_rate: county,
        city_rate: city,
      }).returning();
      taxRows.push({ id: t.id, state, county, city });
    }
    const unit = await makeCategory(db, { name: "Odessa Yard" });
    const rows: Row[] = [];
    const stock = async (
      kind: Kind,
      type: "Itemized" | "Serialized" | "Charge Code",
      rate: number,
      quantity: number,
      opts: { minimum_rate?: number; additional_day?: number; taxable?: boolean; expendable?: boolean },
    ) => {
      const item = await makeItem(db, {
        inventory_type: type,
        rate,
        isTaxable: opts.taxable ?? false,
        isExpendable: opts.expendable ?? false,
        item_description: `Item ${kind}${rows.length}`,
      });
      const row = await makeInventory(db, {
        item_id: item.id,
        business_unit_id: unit.id,
        quantity,
        minimum_rate: opts.minimum_rate ?? null,
        additional_day: opts.additional_day ?? null,
      });
      const r: Row = {
        id: row.id,
        kind,
        start: quantity,
        rate,
        minimum_rate: opts.minimum_rate ?? null,
        additional_day: opts.additional_day ?? null,
        taxable: opts.taxable ?? false,
        holds: type !== "Charge Code",
        sold: 0,
        removed: 0,
      };
      rows.push(r);
      return r;
    };
    const A = await stock("A", "Itemized", 10.005, 1000, {
      minimum_rate: 45.125,
      additional_day: 9.995,
      taxable: true,
    });
    const B = await stock("B", "Itemized", 125.5, 1000, { taxable: true });
    const C = await stock("C", "Charge Code", 0.675, 0, { expendable: true });
    const D = await stock("D", "Charge Code", 33.333, 0, {
      minimum_rate: 12.5,
      additional_day: 2.345,
      taxable: true,
      expendable: true,
    });
    const serials: Row[] = [];
    for (let i = 0; i < 6; i++) {
      serials.push(await stock("S", "Serialized", 250, 1, { minimum_rate: 100, additional_day: 87.5 }));
    }
    const [template] = await db.insert(templates).values({
      company_id: 1,
      name: "Frac spread",
      business_unit_id: unit.id,
      inventory_ids: [A.id, C.id, B.id],
    }).returning();

    // The model: what the test sent, with the server's documented defaults filled in.
    const all: MTicket[] = [];
    const quotes: MTicket[] = [];
    let ticketSeq = 0;
    let quoteSeq = 0;
    const isQuote = (t: MTicket) => t.quote;
    const held = (t: MTicket, row: Row, quantity: number) =>
      !isQuote(t) && row.holds && quantity > 0 ? Math.ceil(quantity) : 0;

    const createTicket = async (i: number, asQuote: boolean, fromTemplate: boolean): Promise<MTicket> => {
      const rep = reps[i % 2];
      const minRate = i % 3 !== 0;
      const tax = [taxRows[0], taxRows[1], null][i % 3];
      const body = {
        customer_id: customers[i % 3].id,
        sales_rep_id: rep.user.id,
        ticket_date: day(i),
        tax_id: tax?.id ?? null,
        business_unit_id: unit.id,
        ...(minRate ? {} : { use_min_rate_logic: false }), // true is the default
        ...(asQuote ? { status: "QUOTE" } : {}),
        ...(fromTemplate ? { template_id: template.id } : {}),
      };
      const out = await call(rep.token, "POST", TICKETS, body);
      const number = asQuote ? `Q-${pad(++quoteSeq)}` : `T-${pad(++ticketSeq)}`;
      assert.equal(out.ticket_number, number);
      assert.equal(out.use_min_rate_logic, minRate);
      const t: MTicket = {
        id: out.id,
        day: i,
        number,
        minRate,
        tax,
        quote: asQuote,
        token: rep.token,
        lines: [],
        status: asQuote ? "QUOTE" : "OPEN",
      };
      if (fromTemplate) {
        // One of each template row priced as a new line (lines/defaults.ts), the ticket's tax.
        const got = await call(rep.token, "GET", `${LINES}/ticket?ticket_id=${t.id}`);
        assert.deepEqual(got.results.map((l: { inventory_id: number }) => l.inventory_id), [
          A.id,
          C.id,
          B.id,
        ]);
        for (const [k, row] of [A, C, B].entries()) {
          const taxed = row.taxable && tax;
          t.lines.push({
            id: got.results[k].id,
            row,
            quantity: 1,
            price: minRate ? row.additional_day ?? row.rate : row.rate,
            duration: minRate ? 0 : 1,
            minimum_rate: minRate ? row.minimum_rate ?? row.rate : null,
            markup: null,
            discount: 0,
            state_tax: taxed ? tax.state : null,
            county_tax: taxed ? tax.county : null,
            city_tax: taxed ? tax.city : null,
            held: held(t, row, 1),
            done: 0,
          });
        }
      }
      (asQuote ? quotes : all).push(t);
      return t;
    };

    // deno-lint-ignore no-explicit-any
    type Send = Record<string, any>;
    const taxOf = (t: MTicket, row: Row) =>
      row.taxable && t.tax ? [t.tax.state, t.tax.county, t.tax.city] : [null, null, null];
    const addLine = async (t: MTicket, row: Row, send: Send) => {
      const out = await call(t.token, "POST", LINES, { ticket_id: t.id, inventory_id: row.id, ...send });
      const has = (k: string) => k in send;
      const [st, co, ci] = taxOf(t, row);
      const quantity = send.quantity ?? 1;
      const line: MLine = {
        id: out.id,
        row,
        quantity,
        price: send.price ?? (t.minRate ? row.additional_day ?? row.rate : row.rate),
        duration: send.duration ?? (t.minRate ? 0 : 1),
        minimum_rate: has("minimum_rate")
          ? send.minimum_rate
          : t.minRate
          ? row.minimum_rate ?? row.rate
          : null,
        markup: send.markup ?? null,
        discount: has("discount") ? send.discount : 0,
        state_tax: has("state_tax") ? send.state_tax : st,
        county_tax: has("county_tax") ? send.county_tax : co,
        city_tax: has("city_tax") ? send.city_tax : ci,
        held: held(t, row, quantity),
        done: 0,
      };
      assert.equal(out.quantity_held, line.held);
      t.lines.push(line);
      return line;
    };
    const editLine = async (t: MTicket, line: MLine, send: Send, token = office) => {
      const out = await call(token, "PUT", LINES, { id: line.id, ...send });
      if (t.minRate && line.minimum_rate === null && !("minimum_rate" in send)) line.minimum_rate = 0;
      Object.assign(line, send);
      delete (line as unknown as Send).start_date;
      delete (line as unknown as Send).end_date;
      if ("quantity" in send && line.done === 0) line.held = held(t, line.row, send.quantity);
      assert.equal(out.quantity_held, line.held);
    };

    const QTY: Record<Kind, readonly number[]> = {
      A: [0, 1, 2, 3, 4, 5, 6],
      B: [1, 2, 3, 4],
      C: [2.5, 0.75, 12.125, 0, 1, 3.333],
      D: [1.5, 0.25, 2, 0],
      S: [1],
    };
    const PRICES = ["10.005", "0.675", "33.333", "125.5", "1.015", "2.345", "0.005", "19.995"];
    const DURATIONS = [2.5, 0, 1, 3, 7, 0.5, 1.25];
    const MINIMUMS = ["45.125", "0", "100", "12.345"];
    const MARKUPS = [null, 10, 7.5, 12.345];
    const DISCOUNTS = [0, 5, 12.5, 3.333, 0.5];
    const lineBody = (t: MTicket, row: Row, d: number): Send => {
      const send: Send = { quantity: rnd.pick(QTY[row.kind]) };
      if (!t.quote) {
        send.start_date = `${day(d)}T08:00`;
        if (rnd.chance(0.5)) send.end_date = `${day(d + 2)}T17:30`;
      }
      if (rnd.chance(0.7)) send.price = Number(rnd.pick(PRICES));
      if (rnd.chance(0.8)) send.duration = rnd.pick(DURATIONS);
      if (rnd.chance(t.minRate ? 0.6 : 0.2)) send.minimum_rate = Number(rnd.pick(MINIMUMS));
      if (rnd.chance(0.4)) send.markup = rnd.pick(MARKUPS);
      if (rnd.chance(0.6)) send.discount = rnd.pick(DISCOUNTS);
      if (rnd.chance(0.3)) Object.assign(send, { state_tax: 8.25, county_tax: 0.5, city_tax: 1.125 });
      else if (rnd.chance(0.15)) Object.assign(send, { state_tax: null, county_tax: null, city_tax: null });
      return send;
    };
    const fillLines = async (t: MTicket, serial: Row | undefined) => {
      const n = 3 + rnd.int(3);
      for (let k = 0; k < n; k++) {
        const row = k === 0 && serial ? serial : rnd.pick([A, A, B, C, D]);
        await addLine(t, row, lineBody(t, row, t.day));
      }
    };
    const editSome = async (t: MTicket) => {
      for (const line of t.lines) {
        if (!rnd.chance(0.35)) continue;
        const send: Send = t.quote ? {} : { start_date: `${day(t.day)}T07:15` };
        const what = rnd.int(4);
        if (what === 0 && line.row.kind !== "S") send.quantity = rnd.pick(QTY[line.row.kind]);
        else if (what === 1) send.price = Number(rnd.pick(PRICES));
        else if (what === 2) {
          Object.assign(send, { discount: rnd.pick(DISCOUNTS), markup: rnd.pick(MARKUPS) });
        } else send.duration = rnd.pick(DURATIONS);
        await editLine(t, line, send);
      }
    };

    // Days 1-30: a ticket a day (every seventh from day 3 a quote, cloned into a ticket).
    let serialNext = 0;
    for (let d = 1; d <= 30; d++) {
      const quote = d % 7 === 3;
      const fromTemplate = !quote && d % 5 === 1;
      const serial = d % 5 === 2 ? serials[serialNext++] : undefined;
      const t = await createTicket(d, quote, fromTemplate);
      await fillLines(t, quote ? undefined : serial);
      await editSome(t);
      if (quote) {
        const copy = await call(t.token, "PUT", TICKETS, { id: t.id, status: "CLONEQUOTE" });
        assert.equal(copy.message, "Quote cloned");
        const number = `T-${pad(++ticketSeq)}`;
        assert.deepEqual([copy.status, copy.ticket_number, copy.source_ticket_id], ["OPEN", number, t.id]);
        const got = await call(t.token, "GET", `${LINES}/ticket?ticket_id=${copy.id}`);
        const c: MTicket = { ...t, id: copy.id, number, quote: false, status: "OPEN", lines: [] };
        c.lines = t.lines.map((l, k) => ({ ...l, id: got.results[k].id, held: held(c, l.row, l.quantity) }));
        assert.deepEqual(
          got.results.map((l: { quantity_held: number }) => l.quantity_held),
          c.lines.map((l) => l.held),
        );
        all.push(c);
        // The copy's lines get their dates (a quote's have none) and an edit or two.
        for (const l of c.lines) await editLine(c, l, { start_date: `${day(d)}T09:00` });
        await editSome(c);
      }
    }
    assert.equal(all.length, 30);

    // A serial number already out on a ticket cannot go out on another one.
    const short = await call(all[0].token, "POST", LINES, {
      ticket_id: all[0].id,
      inventory_id: serials[0].id,
      start_date: "2026-03-01T08:00",
    }, 409);
    assert.equal(short.detail, "ERROR: Line item quantity exceeds available inventory:");

    // Day 12's ticket switches min-rate logic after its lines: totals follow the ticket's flag.
    const flip = all.find((t) => t.day === 12)!;
    flip.minRate = !flip.minRate;
    await call(flip.token, "PUT", TICKETS, { id: flip.id, use_min_rate_logic: flip.minRate });

    // Every ticket's and quote's totals while still open.
    const checkTotals = async (t: MTicket) => {
      const got = await call(approver, "GET", `${TICKETS}/${t.id}`);
      const want = exactTotals(t.lines, t.minRate);
      assert.deepEqual(
        got.totals,
        Object.fromEntries(Object.entries(want).map(([k, v]) => [k, centsToNumber(v)])),
        `totals of ${t.number}`,
      );
      return got;
    };
    for (const t of [...all, ...quotes]) await checkTotals(t);

    // Month end: the last two tickets stay open with their stock out; the rest are billed.
    const billed = all.slice(0, -2);
    const open = all.slice(-2);
    assert.deepEqual(open.map((t) => t.day), [29, 30]);

    const checkIn = (t: MTicket, parts: { line: MLine; qIn?: number; qSold?: number; remove?: boolean }[]) =>
      call(t.token, "POST", "/api/sales/inventory/check-in", {
        ticket_id: t.id,
        line_items: parts.map((p) => p.line.id),
        quantities_in: parts.map((p) => p.qIn ?? 0),
        quantities_sold: parts.map((p) => p.qSold ?? 0),
        remove_quantities: parts.map((p) => p.remove ?? false),
        quantity_dates: parts.map(() => `${day(t.day + 3)}T16:00`),
      });

    // First returns: one of each line holding two or more comes back.
    for (const t of billed) {
      const parts = t.lines.filter((l) => l.held >= 2).map((line) => ({ line, qIn: 1 }));
      if (!parts.length) continue;
      await checkIn(t, parts);
      for (const p of parts) p.line.done += 1;
    }
    // Ready for billing; Request Approval refused while anything is out.
    let refused = 0;
    for (const t of billed) {
      assert.equal((await call(t.token, "PUT", TICKETS, { id: t.id, status: "RFB" })).status, "RFB");
      t.status = "RFB";
      if (t.lines.some((l) => l.held > l.done)) {
        const r = await call(t.token, "PUT", TICKETS, { id: t.id, status: "RFA" }, 409);
        assert.equal(r.detail, BLOCKED);
        refused++;
      }
    }
    assert.ok(refused >= 10, `RFA refused ${refused} times`);

    // The rest comes back: all in; one sold and the rest in; or (itemized) one removed, one sold, rest in.
    for (const t of billed) {
      const first: Parameters<typeof checkIn>[1] = [];
      const second: Parameters<typeof checkIn>[1] = [];
      for (const line of t.lines) {
        const r = line.held - line.done;
        if (r <= 0) continue;
        const v = line.row.kind === "S" ? rnd.int(2) : rnd.int(3);
        if (v === 2 && r >= 2) {
          first.push({ line, qIn: 1, remove: true });
          second.push({ line, qSold: 1, qIn: r - 2 });
          line.row.removed += 1;
          line.row.sold += 1;
        } else if (v >= 1) {
          first.push({ line, qSold: 1, qIn: r - 1 });
          line.row.sold += 1;
        } else first.push({ line, qIn: r });
        line.done = line.held;
      }
      if (first.length) await checkIn(t, first);
      if (second.length) await checkIn(t, second);
      const got = await call(t.token, "GET", `${TICKETS}/${t.id}`);
      assert.equal(got.lines_complete, true, `${t.number} complete`);
      assert.equal((await call(t.token, "PUT", TICKETS, { id: t.id, status: "RFA" })).status, "RFA");
      t.status = "RFA";
    }
    assert.ok(rows.some((r) => r.removed > 0) && rows.some((r) => r.sold > 0));

    // Rejections: a comment is required; unresolved sends the ticket back; resolved in RFB; resubmitted.
    const rejected = billed.filter((_, k) => k % 9 === 4);
    assert.ok(rejected.length >= 3);
    for (const t of rejected) {
      const bare = await call(
        approver,
        "POST",
        "/api/sales/rejections",
        { ticket_id: t.id, comment: "" },
        422,
      );
      assert.ok(JSON.stringify(bare).includes("Comment is required"));
      await call(t.token, "POST", "/api/sales/rejections", { ticket_id: t.id, comment: "Nope" }, 403);
      const r = await call(approver, "POST", "/api/sales/rejections", {
        ticket_id: t.id,
        comment: "Rate on the first line is wrong",
      });
      assert.equal(r.message, "Ticket rejected");
      assert.equal((await call(t.token, "GET", `${TICKETS}/${t.id}`)).status, "RFB");
      const unresolved = await call(t.token, "POST", "/api/sales/rejections", {
        ticket_id: t.id,
        comment: "Looking",
        resolved: false,
      }, 422);
      assert.ok(JSON.stringify(unresolved).includes("Mark it resolved to submit."));
      await editLine(t, t.lines[0], { price: 10.015, discount: 2.5 });
      await call(t.token, "POST", "/api/sales/rejections", {
        ticket_id: t.id,
        comment: "Price corrected",
        resolved: true,
      });
      assert.equal((await call(t.token, "PUT", TICKETS, { id: t.id, status: "RFA" })).status, "RFA");
    }

    // Approval, in an order of its own; a non-approver is refused.
    const order = [...billed];
    for (let k = order.length - 1; k > 0; k--) {
      const j = rnd.int(k + 1);
      [order[k], order[j]] = [order[j], order[k]];
    }
    const noRole = await call(order[0].token, "PUT", TICKETS, { id: order[0].id, status: "APP" }, 403);
    assert.equal(noRole.detail, APPROVERS_ONLY);
    let invoiceSeq = 0;
    const approve = async (t: MTicket, date: string) => {
      const out = await call(approver, "PUT", TICKETS, { id: t.id, status: "APP", invoice_date: date });
      const number = t.invoice ?? `INV-${pad(++invoiceSeq)}`;
      assert.deepEqual([out.status, out.isInvoice, out.invoice_number], ["APP", true, number], t.number);
      t.invoice = number;
      t.status = "APP";
    };
    let reopened: MTicket | undefined;
    for (const [k, t] of order.entries()) {
      await approve(t, day(20 + Math.floor(k / 3)));
      if (k === 9) {
        // Re-open the second invoice: approvers only; it keeps its number.
        reopened = order[1];
        const line = reopened.lines.find((l) => l.row.kind === "C" || l.row.kind === "D") ??
          reopened.lines[0];
        const locked = await call(office, "PUT", LINES, { id: line.id, discount: 1 }, 409);
        assert.equal(locked.detail, "Invoiced lines cannot change.");
        await call(reopened.token, "PUT", TICKETS, { id: reopened.id, status: "OPEN" }, 403);
        const back = await call(approver, "PUT", TICKETS, { id: reopened.id, status: "OPEN" });
        assert.deepEqual([back.status, back.isInvoice, back.invoice_number], ["OPEN", false, "INV-00002"]);
        await editLine(reopened, line, { discount: 1, markup: 2.5 });
        await call(reopened.token, "PUT", TICKETS, { id: reopened.id, status: "RFB" });
        await call(reopened.token, "PUT", TICKETS, { id: reopened.id, status: "RFA" });
      }
    }
    await approve(reopened!, "2026-03-31");
    assert.equal(reopened!.invoice, "INV-00002");
    assert.equal(invoiceSeq, 28);
    // Consecutive in first-approval order, none reused.
    assert.deepEqual(
      order.map((t) => t.invoice),
      order.map((_, k) => `INV-${pad(k + 1)}`),
    );

    // Every invoice's totals, exact; then the Sales Data rows of invoices add up to the same money.
    let month = 0n;
    const grand = new Map<number, bigint>();
    for (const t of [...all, ...quotes]) {
      const got = await checkTotals(t);
      if (t.invoice) {
        assert.deepEqual([got.status, got.isInvoice, got.invoice_number], ["APP", true, t.invoice]);
        const g = exactTotals(t.lines, t.minRate).grandtotal;
        grand.set(t.id, g);
        month += g;
      } else assert.equal(got.isInvoice, false);
    }
    const data = await call(approver, "GET", `${LINES}?isInvoice=true&hideQuotes=true&rowsPerPage=-1`);
    const invoiced = all.filter((t) => t.invoice);
    const lineCount = invoiced.reduce((s, t) => s + t.lines.length, 0);
    assert.equal(data.total, lineCount);
    assert.equal(data.results.length, lineCount);
    const byTicket = new Map<number, number>();
    const lineById = new Map(invoiced.flatMap((t) => t.lines.map((l) => [l.id, { t, l }] as const)));
    for (const r of data.results) {
      const m = lineById.get(r.id);
      assert.ok(m, `row ${r.id} is a line of an invoice`);
      const exact = exactLine(m.l, m.t.minRate).total;
      assert.ok(Math.abs(r.calculated_total - Number(exact) / 1e30) < 1e-9, `line ${r.id} total`);
      byTicket.set(r.ticket.id, (byTicket.get(r.ticket.id) ?? 0) + r.calculated_total);
    }
    let fromRows = 0n;
    for (const [id, sum] of byTicket) {
      const c = toCents(fromFloat(sum));
      assert.equal(c, grand.get(id), `Sales Data rows of ticket ${id}`);
      fromRows += c;
    }
    assert.equal(fromRows, month);
    assert.ok(month > 0n);

    // Stock: start less sold less removed; out only what the two open tickets still hold.
    const stored = await db.select().from(inventory);
    for (const r of rows) {
      const row = stored.find((x) => x.id === r.id)!;
      const out = open.flatMap((t) => t.lines).filter((l) => l.row === r).reduce((s, l) => s + l.held, 0);
      assert.deepEqual(
        [row.quantity, row.quantity_out],
        [r.start - r.sold - r.removed, out],
        `stock of ${r.kind} ${r.id}`,
      );
    }
    assert.ok(open.some((t) => t.lines.some((l) => l.held > 0)), "the open tickets hold stock");

    // The invoice PDFs print the grand total.
    for (const t of invoiced) {
      const text = await pdf(env, approver, t.id);
      assert.ok(text.includes(t.invoice!), `${t.invoice} printed`);
      assert.ok(text.includes(usd(grand.get(t.id)!)), `${t.invoice} shows ${usd(grand.get(t.id)!)}`);
    }
  }));

async function pdf(env: TestEnv, token: string, id: number): Promise<string> {
  const res = await env.request(`/api/sales/ticketpdf?ticket_id=${id}&type=invoice&printInvoice=true`, {
    token,
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.status, 200);
  return pdfText(bytes);
}

Deno.test("month - a line stored without a minimum rate can be edited on a min-rate ticket (counts as 0)", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const customer = await makeCompany(db, { name: "Permian Energy" });
    const { user: rep, token } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
    const unit = await makeCategory(db, { name: "Odessa Yard" });
    const item = await makeItem(db, { inventory_type: "Charge Code", rate: 0.675, isExpendable: true });
    const row = await makeInventory(db, { item_id: item.id, business_unit_id: unit.id, quantity: 0 });
    const [tpl] = await db.insert(templates).values({
      company_id: 1,
      name: "Mileage",
      business_unit_id: unit.id,
      inventory_ids: [row.id],
    }).returning();
    // A template row without a minimum rate, on a min-rate ticket: the item's rate, as the line form fills it.
    const t = await env.json(TICKETS, {
      token,
      method: "POST",
      json: { customer_id: customer.id, sales_rep_id: rep.id, template_id: tpl.id },
    });
    const [line] = (await env.json(`${LINES}/ticket?ticket_id=${t.id}`, { token })).results;
    assert.equal(line.minimum_rate, 0.675);
    const admin = (await env.userWithToken({ permissions: ["sales-admin"] })).token;
    const edited = await env.json(LINES, {
      token: admin,
      method: "PUT",
      json: { id: line.id, duration: 2.5 },
    });
    assert.deepEqual([edited.duration, edited.minimum_rate], [2.5, 0.675]);
    // A line added before the ticket turned min-rate logic on.
    const plain = await env.json(TICKETS, {
      token,
      method: "POST",
      json: { customer_id: customer.id, sales_rep_id: rep.id, use_min_rate_logic: false },
    });
    const added = await env.json(LINES, {
      token,
      method: "POST",
      json: { ticket_id: plain.id, inventory_id: row.id, quantity: 2, price: 10.005 },
    });
    assert.equal(added.minimum_rate, null);
    await env.json(TICKETS, { token, method: "PUT", json: { id: plain.id, use_min_rate_logic: true } });
    const again = await env.json(LINES, { token: admin, method: "PUT", json: { id: added.id, quantity: 3 } });
    assert.deepEqual([again.quantity, again.minimum_rate], [3, 0]);
    // Sent blank, the field is still required.
    const blank = await env.json(LINES, {
      token: admin,
      method: "PUT",
      json: { id: added.id, minimum_rate: "" },
      status: 422,
    });
    assert.equal(blank.detail, "minimum_rate: Required");
  }));
