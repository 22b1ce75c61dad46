import { openClient } from "../../db/client.ts";
/**
 * The large Sales & Inventory tenant of the benchmark (issue 10): 50,000 tickets, 300,000 lines,
 * 100,000 inventory rows and 500,000 inventory audit rows, added to a tenant that `seed-demo --size small`
 * has already given its business units, items, customers, sales reps and taxes.
 *
 * Going through the services would take hours at this volume, so rows are written straight into the
 * tenant file with multi-row INSERTs, a few thousand rows per transaction. They follow the schema in
 * db/schema/*.ts and the shapes the services write (numbers, statuses, copied names in audit rows), with
 * one simplification the read benchmarks do not see: every bulk line of a ticket that is not a quote was
 * checked in whole (`quantity_held` 0, one "Check In" inventory_log row), so inventory quantities need no
 * bookkeeping. The stock invariant of decision 039 holds for the result (bench/seed_sales_large_test.ts):
 * the audit rows are each row's creation ("Batch Upload" of its quantity) followed by lines taking some
 * out ("Line Added") and checking them back in ("Check In"), and location transfers that move nothing.
 *
 * Ticket mix: 20,000 invoices (APP, `is_invoice`) with 10 lines each, so the Sales Data page's default
 * filter (invoices, no quotes) and its xlsx download cover exactly 200,000 lines; 30,000 other tickets
 * (open, ready for billing, awaiting approval, quotes) share the other 100,000 lines.
 *
 * Usage: deno run -A scripts/bench/seed_sales_large.ts <tenant file>. Safe to rerun: a tenant that
 * already holds 50,000 tickets is left alone.
 */
import type { Client, InValue } from "@libsql/client";

export const TICKETS = 50_000;
export const LINES = 300_000;
export const INVENTORY_ROWS = 100_000;
export const AUDIT_ROWS = 500_000;
export const INVOICES = 20_000;
const LINES_PER_INVOICE = 10;

/** The sizes at `scale` (1: the bench's; a test seeds a thousandth). */
export function sizes(scale = 1) {
  const at = (n: number) => Math.max(10, Math.round(n * scale));
  return {
    tickets: at(TICKETS),
    lines: at(LINES),
    inventoryRows: at(INVENTORY_ROWS),
    auditRows: at(AUDIT_ROWS),
    invoices: at(INVOICES),
  };
}

/** mulberry32: the same data on every machine, so figures compare across runs. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w = 6) => String(n).padStart(w, "0");
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const instant = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

/** Inserts `rows` into `table` in statements of at most ~30,000 parameters (SQLite allows 32,766). */
async function insertMany(client: Pick<Client, "execute">, table: string, cols: string[], rows: InValue[][]) {
  const per = Math.floor(30_000 / cols.length);
  const colList = cols.map((c) => `"${c}"`).join(",");
  const one = `(${cols.map(() => "?").join(",")})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    await client.execute({
      sql: `insert into "${table}" (${colList}) values ${chunk.map(() => one).join(",")}`,
      args: chunk.flat(),
    });
  }
}

/** Rows made by `make(i)` for i in [0, n), written `batch` at a time, each batch one transaction. */
async function fill(
  client: Client,
  table: string,
  cols: string[],
  n: number,
  make: (i: number) => InValue[],
  log: (s: string) => void,
  batch = 20_000,
) {
  const t0 = performance.now();
  for (let start = 0; start < n; start += batch) {
    const rows: InValue[][] = [];
    for (let i = start; i < Math.min(n, start + batch); i++) rows.push(make(i));
    // client.transaction hands its connection to the transaction: one write transaction per batch.
    const tx = await client.transaction("write");
    try {
      await insertMany(tx, table, cols, rows);
      await tx.commit();
    } finally {
      tx.close();
    }
  }
  log(`${table}: ${n} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function all<T>(client: Client, sql: string): Promise<T[]> {
  return (await client.execute(sql)).rows as unknown as T[];
}

export async function seedSalesLarge(file: string, log: (s: string) => void = console.log, scale = 1) {
  const {
    tickets: TICKETS,
    lines: LINES,
    inventoryRows: INVENTORY_ROWS,
    auditRows: AUDIT_ROWS,
    invoices: INVOICES,
  } = sizes(scale);
  const client = await openClient("file:" + file);
  try {
    await client.execute("PRAGMA journal_mode=WAL");
    const have = Number((await client.execute("select count(*) as n from tickets")).rows[0].n);
    if (have >= TICKETS) {
      log(`sales tenant already large (${have} tickets): kept`);
      return;
    }
    const r = rng(10);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];

    const owner = (await all<{ id: number }>(client, "select id from companies where is_owner = 1"))[0].id;
    const customers = await all<{ id: number; name: string }>(
      client,
      "select id, name from companies where company_type = 'customer_company' order by id",
    );
    const users = await all<{ id: number; name: string; is_sales_rep: number }>(
      client,
      "select id, name, is_sales_rep from users where company_id = " + owner + " order by id",
    );
    const reps = users.filter((u) => u.is_sales_rep).length ? users.filter((u) => u.is_sales_rep) : users;
    const taxes = await all<{ id: number }>(client, "select id from taxes order by id");
    const units = await all<{ id: number; name: string }>(
      client,
      "select id, name from categories where model = 'Business Unit' order by id",
    );
    const productLines = await all<{ id: number }>(
      client,
      "select id from categories where model = 'Product Line' order by id",
    );
    const subLines = await all<{ id: number; category_id: number }>(
      client,
      "select id, category_id from sub_categories order by id",
    );
    const invCategories = await all<{ id: number; name: string }>(
      client,
      "select id, name from categories where model = 'Inventory Category' order by id",
    );
    const itemCategories = await all<{ id: number }>(
      client,
      "select id from categories where model = 'Item Category' order by id",
    );
    if (
      !customers.length || !units.length || !taxes.length || !productLines.length || !itemCategories.length
    ) {
      throw new Error("the tenant lacks the small demo (run seed-demo <slug> --size small first)");
    }

    // Items: 300 more, so inventory spreads over a realistic catalogue.
    const baseItems = Number((await client.execute("select count(*) as n from items")).rows[0].n);
    const types = ["Serialized", "Itemized", "Charge Code"] as const;
    const itemCols = [
      "company_id",
      "item_number",
      "item_description",
      "rate",
      "units",
      "inventory_type",
      "item_type",
      "is_taxable",
      "category_id",
    ];
    const nouns = ["gate valve", "plug valve", "check valve", "choke manifold", "swivel", "pup joint", "sub"];
    const sizes = ["2in", "3in", "4-1/16in", "5-1/8in", "2-9/16in"];
    await fill(client, "items", itemCols, 300, (i) => {
      const type = i < 200 ? types[0] : i < 280 ? types[1] : types[2];
      return [
        owner,
        `BX-${type[0]}${pad(i + 1, 4)}`,
        `${pick(sizes)} ${pick(["5K", "10K", "15K"])} ${pick(nouns)}`,
        Math.round(20 + r() * 1500),
        type === "Charge Code" ? "Per Item" : "Per Day",
        type,
        type === "Charge Code" ? "Sales" : "Rental",
        type === "Charge Code" ? 0 : 1,
        pick(itemCategories).id,
      ];
    }, log);
    const items = await all<
      { id: number; item_number: string; item_description: string; inventory_type: string }
    >(
      client,
      `select id, item_number, item_description, inventory_type from items order by id limit -1 offset ${baseItems}`,
    );
    const serialized = items.filter((i) => i.inventory_type === "Serialized");
    const itemized = items.filter((i) => i.inventory_type !== "Serialized");

    // Inventory: 100,000 rows, 95% serialized units of one each, the rest itemized stock and charge codes.
    const invCols = [
      "company_id",
      "item_id",
      "business_unit_id",
      "serial_number",
      "inventory_description",
      "category_id",
      "status",
      "quantity",
      "purchase_date",
      "purchase_price",
      "manufacturer",
      "location",
      "updated_by_id",
      "created_at",
      "updated_at",
    ];
    const now = Date.parse("2026-11-01T00:00:00Z");
    const yearMs = 365 * 86_400_000;
    const baseInv = Number(
      (await client.execute("select coalesce(max(id), 0) as n from inventory")).rows[0].n,
    );
    const invMeta: {
      item: (typeof items)[number];
      unit: string;
      serial: string;
      category: string;
      quantity: number;
    }[] = [];
    const serialRows = Math.round(INVENTORY_ROWS * 0.95);
    await fill(client, "inventory", invCols, INVENTORY_ROWS, (i) => {
      const ser = i < serialRows;
      // Itemized rows: one per (item, unit) pair at most, told apart by a lot suffix on the serial.
      const item = ser ? serialized[i % serialized.length] : itemized[i % itemized.length];
      const unit = units[Math.floor(i / 7) % units.length];
      const cat = item.inventory_type === "Charge Code"
        ? invCategories[invCategories.length - 1]
        : invCategories[0];
      const serial = ser ? `${item.item_number.slice(3)}-${pad(100_000 + i, 7)}` : `LOT-${pad(i, 6)}`;
      const t = instant(now - r() * 3 * yearMs);
      const description = r() < 0.2 ? "refurbished " + item.item_description : "";
      const status = r() < 0.9 ? "Available" : "Repair";
      const quantity = ser ? 1 : Math.floor(5 + r() * 200);
      invMeta.push({ item, unit: unit.name, serial, category: cat.name, quantity });
      return [
        owner,
        item.id,
        unit.id,
        serial,
        description,
        cat.id,
        status,
        quantity,
        day(now - r() * 6 * yearMs),
        Math.round(500 + r() * 40_000),
        pick(["Cameron", "Weir SPM", "FMC", "Schlumberger", "Forum"]),
        "",
        users[0].id,
        t,
        t,
      ];
    }, log);

    // Tickets: invoices first in shuffled order of dates, so numbers and statuses interleave in time.
    const counter = async (name: string) =>
      Number(
        (await client.execute({
          sql: "select coalesce(max(value), 0) as n from number_counters where name = ?",
          args: [name],
        }))
          .rows[0]?.n ?? 0,
      );
    let ticketNo = await counter("ticket");
    let quoteNo = await counter("quote");
    let invoiceNo = await counter("invoice");
    const baseTicket = Number(
      (await client.execute("select coalesce(max(id), 0) as n from tickets")).rows[0].n,
    );
    const statuses: string[] = [];
    for (let i = 0; i < TICKETS; i++) {
      statuses.push(
        i < INVOICES
          ? "APP"
          : i < TICKETS * 0.64
          ? "OPEN"
          : i < TICKETS * 0.8
          ? "RFB"
          : i < TICKETS * 0.88
          ? "RFA"
          : "QUOTE",
      );
    }
    for (let i = statuses.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [statuses[i], statuses[j]] = [statuses[j], statuses[i]];
    }
    const ticketCols = [
      "company_id",
      "created_by_id",
      "ticket_number",
      "invoice_number",
      "invoice_date",
      "ticket_date",
      "customer_id",
      "sales_rep_id",
      "tax_id",
      "business_unit_id",
      "product_line_id",
      "sub_product_line_id",
      "location",
      "status",
      "is_invoice",
      "is_quote",
      "is_billed",
      "is_paid",
      "is_signed",
      "created_at",
      "updated_at",
    ];
    const tMeta: {
      number: string;
      invoice: string;
      customer: string;
      rep: string;
      date: number;
      unit: number;
    }[] = [];
    const wells = ["Tomahawk", "Sandhills", "Hackberry", "Toyah", "Pecos Unit", "Ranch", "State"];
    await fill(client, "tickets", ticketCols, TICKETS, (i) => {
      const status = statuses[i];
      // Dates rise with the id over three years, as tickets are made in time order.
      const date = now - 3 * yearMs + (i / TICKETS) * 3 * yearMs + r() * 86_400_000;
      const quote = status === "QUOTE";
      const number = quote ? `Q-${pad(++quoteNo, 5)}` : `T-${pad(++ticketNo, 5)}`;
      const invoice = status === "APP" ? `INV-${pad(++invoiceNo, 5)}` : null;
      const customer = pick(customers);
      const rep = pick(reps);
      const unitIdx = Math.floor(r() * units.length);
      const pl = pick(productLines).id;
      const subs = subLines.filter((s) => s.category_id === pl);
      tMeta.push({
        number,
        invoice: invoice ?? "",
        customer: customer.name,
        rep: rep.name,
        date,
        unit: unitIdx,
      });
      const created = instant(date);
      return [
        owner,
        rep.id,
        number,
        invoice,
        invoice ? day(date + 7 * 86_400_000) : null,
        day(date),
        customer.id,
        rep.id,
        pick(taxes).id,
        units[unitIdx].id,
        pl,
        subs.length ? pick(subs).id : null,
        `${customer.name.split(" ")[0]} ${pick(wells)} ${Math.floor(1 + r() * 40)} #${
          Math.floor(1 + r() * 9)
        }H`,
        status,
        invoice ? 1 : 0,
        quote ? 1 : 0,
        invoice && r() < 0.7 ? 1 : 0,
        invoice && r() < 0.5 ? 1 : 0,
        status !== "OPEN" && !quote ? 1 : 0,
        created,
        created,
      ];
    }, log);
    await client.execute({
      sql:
        "insert or replace into number_counters (name, value) values ('ticket', ?), ('quote', ?), ('invoice', ?)",
      args: [ticketNo, quoteNo, invoiceNo],
    });

    // Lines: 10 per invoice (200,000), 100,000 spread over the other 30,000 tickets (3 or 4 each).
    const lineTicket: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < TICKETS; i++) {
      if (statuses[i] === "APP") { for (let k = 0; k < LINES_PER_INVOICE; k++) lineTicket.push(i); }
      else others.push(i);
    }
    for (let k = 0; lineTicket.length < LINES; k++) lineTicket.push(others[k % others.length]);
    lineTicket.sort((a, b) => a - b);
    const lineCols = [
      "ticket_id",
      "company_id",
      "created_by_id",
      "inventory_id",
      "order",
      "start_date",
      "end_date",
      "duration",
      "quantity",
      "price",
      "minimum_rate",
      "use_min_rate_logic",
      "discount",
      "state_tax",
      "county_tax",
      "city_tax",
      "quantity_held",
      "created_at",
      "updated_at",
    ];
    let order = 0;
    const baseSale = Number(
      (await client.execute("select coalesce(max(id), 0) as n from sales")).rows[0].n,
    );
    const lineMeta: { inv: number; quantity: number; end: number }[] = [];
    await fill(client, "sales", lineCols, LINES, (i) => {
      const t = lineTicket[i];
      order = i > 0 && lineTicket[i - 1] === t ? order + 1 : 0;
      const inv = Math.floor(r() * INVENTORY_ROWS);
      const duration = Math.floor(1 + r() * 14);
      const start = tMeta[t].date + order * 3_600_000;
      const lineQuantity = inv < serialRows ? 1 : Math.floor(1 + r() * 12);
      lineMeta.push({
        inv,
        quantity: statuses[t] === "QUOTE" ? 0 : lineQuantity,
        end: start + duration * 86_400_000,
      });
      return [
        baseTicket + 1 + t,
        owner,
        users[0].id,
        baseInv + 1 + inv,
        order,
        instant(start),
        instant(start + duration * 86_400_000),
        duration,
        lineQuantity,
        Math.round(10 + r() * 1400),
        r() < 0.3 ? Math.round(100 + r() * 900) : null,
        r() < 0.3 ? 1 : 0,
        r() < 0.2 ? pick([5, 10, 15]) : 0,
        6.25,
        0.5,
        1.5,
        0,
        instant(start),
        instant(start),
      ];
    }, log);

    // Each line of a ticket that is not a quote came back whole at its end: its one Check In log row.
    const logCols = [
      "sale_id",
      "inventory_id",
      "date",
      "quantity_in",
      "starting_quantity",
      "ending_quantity",
      "action",
      "user_id",
      "user_name",
    ];
    const checkedIn = lineMeta.flatMap((l, i) => (l.quantity > 0 ? [i] : []));
    await fill(client, "inventory_log", logCols, checkedIn.length, (k) => {
      const i = checkedIn[k];
      const l = lineMeta[i];
      const q = invMeta[l.inv].quantity;
      return [
        baseSale + 1 + i,
        baseInv + 1 + l.inv,
        instant(l.end),
        l.quantity,
        q,
        q,
        "Check In",
        users[0].id,
        users[0].name,
      ];
    }, log);

    // Audit: 500,000 rows over the three years, each copying its row's and ticket's names: each row's
    // creation first, then lines taking some of a row out and checking it back in, in pairs, and
    // location transfers that move nothing, so the ledger replays to the rows as stored.
    const auditCols = [
      "action_time",
      "action",
      "updated_by_id",
      "updated_by_name",
      "inventory_id",
      "serial_number",
      "item_number",
      "item_description",
      "status",
      "quantity",
      "quantity_change",
      "category",
      "business_unit",
      "locations",
      "ticket_number",
      "invoice_number",
      "customer_name",
      "sales_rep_name",
      "start_date",
    ];
    let pair: { inv: number; t: (typeof tMeta)[number]; q: number } | undefined;
    await fill(
      client,
      "inventory_audit",
      auditCols,
      AUDIT_ROWS,
      (i) => {
        const created = i < INVENTORY_ROWS;
        // After the creations, blocks of five: two pairs (Line Added, Check In) and a location transfer.
        const at = (i - INVENTORY_ROWS) % 5;
        const opens = !created && (at === 0 || at === 2) && i < AUDIT_ROWS - 1;
        const closes = !created && (at === 1 || at === 3) && pair !== undefined;
        if (opens) {
          const inv = Math.floor(r() * INVENTORY_ROWS);
          const q = Math.max(1, Math.floor(r() * Math.min(invMeta[inv].quantity, 12)));
          pair = { inv, t: tMeta[Math.floor(r() * TICKETS)], q };
        }
        const onTicket = opens || closes;
        const inv = created ? i : onTicket ? pair!.inv : Math.floor(r() * INVENTORY_ROWS);
        const m = invMeta[inv];
        const t = onTicket ? pair!.t : undefined;
        const action = created
          ? "Batch Upload"
          : opens
          ? "Line Added"
          : closes
          ? "Check In"
          : "Location Transfer";
        // Created: the quantity owned; Line Added/Check In: what is available, -q then +q.
        const change = created ? m.quantity : opens ? -pair!.q : closes ? pair!.q : 0;
        if (closes) pair = undefined;
        // Times rise with the id, as audit rows are appended.
        const time = now - 3 * yearMs + (i / AUDIT_ROWS) * 3 * yearMs;
        const user = pick(users);
        return [
          new Date(time).toISOString(),
          action,
          user.id,
          user.name,
          baseInv + 1 + inv,
          m.serial,
          m.item.item_number,
          m.item.item_description,
          "Available",
          m.quantity,
          change,
          m.category,
          m.unit,
          "",
          t ? t.number : "",
          t ? t.invoice : "",
          t ? t.customer : "",
          t ? t.rep : "",
          t ? instant(t.date) : null,
        ];
      },
      log,
      50_000,
    );
    await client.execute("PRAGMA optimize");
    await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    client.close();
  }
}

if (import.meta.main) {
  const file = Deno.args[0];
  if (!file) {
    console.error("usage: seed_sales_large.ts <tenant file>");
    Deno.exit(1);
  }
  await seedSalesLarge(file);
}
