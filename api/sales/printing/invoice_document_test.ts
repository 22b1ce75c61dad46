import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { companies } from "../../../db/schema/mod.ts";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeCompany, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";

const SETTINGS = {
  sellerAddress: ["1200 Industrial Blvd", "Midland, TX 79701"],
  remitTo: ["Lone Star Rentals LLC", "PO Box 4410, Midland, TX 79702", "ACH routing 111000025"],
  paymentTermsDays: 30,
};

/**
 * T-00012 as the office met it: three printed lines adding up to 292.55 and a 350.00 delivery hidden from
 * printing, total 642.55; taxes on two lines, a discount and a markup, min-rate logic on.
 */
async function invoice(env: TestEnv) {
  const db = env.tenant.db;
  await db.update(companies).set({ name: "Lone Star Rentals", settings: SETTINGS }).where(
    eq(companies.id, 1),
  );
  const customer = await makeCompany(db, {
    name: "Caprock Drilling",
    company_type: "customer_company",
    custom: { address_line_1: "77 Caprock Rd", address_line_2: "Lubbock, TX" },
  });
  const ticket = await makeTicket(db, {
    customer_id: customer.id,
    ticket_number: "T-00012",
    status: "APP",
    isInvoice: true,
    invoice_number: "INV-00007",
    invoice_date: "2026-02-20",
    use_min_rate_logic: true,
  });
  const line = async (
    item: Parameters<typeof makeItem>[1],
    serial: string,
    over: Parameters<typeof makeLine>[1],
  ) => {
    const it = await makeItem(db, item);
    const inv = await makeInventory(db, { item_id: it.id, serial_number: serial });
    await makeLine(db, { ticket_id: ticket.id, inventory_id: inv.id, ...over });
  };
  // 1 x (100 + 2 x 40) = 180, 10% off = 162, 8.25% tax = 13.365 -> 13.37: 175.37
  await line(
    { item_number: "PV-2", item_description: "2in plug valve", inventory_type: "Serialized" },
    "PV2-0042",
    {
      quantity: 1,
      minimum_rate: 100,
      price: 40,
      duration: 2,
      discount: 10,
      state_tax: 6.25,
      county_tax: 1.5,
      city_tax: 0.5,
      start_date: "2026-02-10T15:00:00Z",
      end_date: "2026-02-12T15:00:00Z",
      order: 1,
    },
  );
  // 3 x (10 + 1 x 5) = 45, 5% markup = 2.25 -> 47.25, 6.25% tax = 2.953125 -> 2.95: 50.20
  await line({ item_number: "FI-2HU", item_description: "2in hammer union" }, "FI-2HU-LOT", {
    quantity: 3,
    minimum_rate: 10,
    price: 5,
    duration: 1,
    markup: 5,
    state_tax: 6.25,
    order: 2,
  });
  // A charge code: 1 x (0 + 1 x 66.98) = 66.98, no tax.
  await line(
    { item_number: "CC-MILE", item_description: "Mileage", inventory_type: "Charge Code" },
    "CC-MILE-MID",
    {
      quantity: 1,
      minimum_rate: 0,
      price: 66.98,
      duration: 1,
      order: 3,
    },
  );
  // Hidden from printing: the delivery, 350.00.
  await line(
    { item_number: "CC-DEL", item_description: "Delivery", inventory_type: "Charge Code" },
    "CC-DEL-MID",
    {
      quantity: 1,
      minimum_rate: 0,
      price: 350,
      duration: 1,
      order: 4,
      custom: { hide: true },
    },
  );
  return ticket;
}

const MONEY = /^-?\$[\d,]+\.\d{2}$/;
const cents = (s: string) => Math.round(Number(s.replace(/[$,]/g, "")) * 100);

/** The printed rows (from each item number, or "Other charges", to the next) and the totals block. */
function readDocument(text: string, rowStarts: string[]) {
  const lines = text.split("\n");
  const totalsAt = lines.indexOf("Subtotal");
  assert.ok(totalsAt > 0, "totals block printed");
  const starts = rowStarts.map((s) => {
    const at = lines.indexOf(s);
    assert.ok(at > 0 && at < totalsAt, `row ${s} printed in the table`);
    return at;
  });
  const rows = starts.map((from, i) => {
    const money = lines.slice(from, starts[i + 1] ?? totalsAt).filter((l) => MONEY.test(l)).map(cents);
    const [amount, tax, total] = money.slice(-3);
    return { cells: lines.slice(from, starts[i + 1] ?? totalsAt), money, amount, tax, total };
  });
  const totals = new Map<string, number>();
  for (let i = totalsAt; i < lines.length - 1; i++) {
    if (MONEY.test(lines[i + 1]) && !MONEY.test(lines[i])) totals.set(lines[i], cents(lines[i + 1]));
  }
  return { rows, totals, lines };
}

Deno.test("invoice document - every printed figure reconciles: rows + other charges = totals; hidden lines billed", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ticket = await invoice(env);
    const res = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=invoice`, { token });
    assert.equal(res.status, 200);
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    const { rows, totals } = readDocument(text, ["PV-2", "FI-2HU", "CC-MILE", "Other charges"]);
    const [valve, union, mileage, other] = rows;

    // Each row: amount before tax, its tax, and amount + tax = total.
    assert.deepEqual([valve.amount, valve.tax, valve.total], [16200, 1337, 17537]);
    assert.deepEqual([union.amount, union.tax, union.total], [4725, 295, 5020]);
    assert.deepEqual([mileage.amount, mileage.tax, mileage.total], [6698, 0, 6698]);
    assert.deepEqual(
      [other.amount, other.tax, other.total],
      [35000, 0, 35000],
      "the hidden delivery is billed",
    );
    for (const r of rows) assert.equal(r.amount + r.tax, r.total);
    // Each itemized row's figures: qty x (min rate + days x rate), then markup and discount.
    assert.deepEqual(valve.money.slice(0, 2), [10000, 4000], "min rate, additional-day rate");
    assert.ok(valve.cells.includes("2") && valve.cells.includes("10%"), "days and discount printed");
    assert.ok(union.cells.includes("5%"), "markup printed");

    const sum = (k: "amount" | "tax" | "total") => rows.reduce((s, r) => s + r[k], 0);
    const get = (label: string) => {
      assert.ok(totals.has(label), `${label} printed`);
      return totals.get(label)!;
    };
    assert.equal(sum("amount"), get("Amount before tax"));
    assert.equal(sum("tax"), get("State Tax") + get("County Tax") + get("City Tax"));
    assert.equal(sum("total"), get("Total Due"));
    assert.equal(get("Subtotal") + get("Markup") + get("Discount"), get("Amount before tax"));
    assert.equal(get("Discount"), -1800);
    assert.equal(
      get("Amount before tax") + get("State Tax") + get("County Tax") + get("City Tax"),
      get("Total Due"),
    );
    assert.equal(get("Total Due"), 64255, "292.55 printed plus the hidden 350.00");

    // The API's total is the printed one.
    const t = await (await env.request(`/api/sales/tickets/${ticket.id}`, { token })).json();
    assert.equal(Math.round(t.totals.grandtotal * 100), get("Total Due"));
  }));

Deno.test("invoice document - seller and remit-to from settings, terms and due date, days column, no S/N on charges", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ticket = await invoice(env);
    const res = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=invoice`, { token });
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    const lines = text.split("\n");
    for (
      const s of [
        "Lone Star Rentals",
        "1200 Industrial Blvd",
        "Midland, TX 79701",
        "Bill To",
        "Caprock Drilling",
        "77 Caprock Rd",
        "Remit To",
        "PO Box 4410, Midland, TX 79702",
        "ACH routing 111000025",
        "Terms",
        "Net 30 days",
        "Due Date",
        "03-22-2026", // 02-20-2026 + 30 days
        "Invoice Date",
        "02-20-2026",
        "Serial PV2-0042",
        "1 line not itemized",
      ]
    ) assert.ok(lines.includes(s), `prints ${s}`);
    const header = lines.slice(lines.indexOf("Items"), lines.indexOf("PV-2")).join(" ").replace(/\s+/g, " ");
    assert.match(
      header,
      /Item Dates Qty Min Rate Addl\. Days Addl\. Day Rate Markup Disc\. Amount Tax Total/,
    );
    assert.ok(!/S\/N/.test(text), "no S/N label");
    assert.ok(
      !text.includes("CC-MILE-MID") && !text.includes("FI-2HU-LOT"),
      "serials only for serialized units",
    );
    assert.ok(!text.includes("CC-DEL") && !text.includes("Delivery"), "the hidden line is not itemized");

    // A ticket (not an invoice) has no terms, due date or remit-to.
    const asTicket = pdfText(
      new Uint8Array(
        await (await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=ticket`, { token }))
          .arrayBuffer(),
      ),
    );
    assert.ok(!asTicket.includes("Due Date") && !asTicket.includes("Remit To"));
    assert.ok(asTicket.includes("1200 Industrial Blvd"));
  }));

Deno.test("invoice document - one day of terms reads Net 1 day", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ticket = await invoice(env);
    // Before the invoice's first print, which issues it (decision 040: reprints are those bytes).
    await env.tenant.db.update(companies).set({ settings: { ...SETTINGS, paymentTermsDays: 1 } })
      .where(eq(companies.id, 1));
    const res = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=invoice`, { token });
    const lines = pdfText(new Uint8Array(await res.arrayBuffer())).split("\n");
    assert.ok(lines.includes("Net 1 day"), "Net 1 day");
    assert.ok(lines.includes("02-21-2026"), "due the next day");
  }));
