import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import { UNIT_PRICE_XLSX_FORMAT } from "../../../lib/format.ts";

/**
 * Issue 29, point 4: prices print as entered (2 to 4 decimals), so a reader who multiplies a line's
 * printed figures (quantity x rate x days, plus the minimum rate, then markup and discount as printed)
 * gets its printed amount to the cent, on the PDF and in the Sales Data xlsx.
 */
interface Case {
  item: string;
  quantity: number;
  price: number;
  duration: number;
  minimum_rate?: number;
  markup?: number;
  discount?: number;
  state_tax?: number;
}

const CASES: Case[] = [
  // 87 x 0.655 = 56.985 -> 56.99: printed as $0.66 a reader got 57.42.
  { item: "GK-1", quantity: 87, price: 0.655, duration: 1 },
  // 3 x 33.335 x 2 = 200.01; +5% = 10.0005 -> 10.00; -10% of 210.01 = 21.001 -> 21.00: 189.01
  { item: "SW-2", quantity: 3, price: 33.335, duration: 2, markup: 5, discount: 10, state_tax: 6.25 },
  // 7 x 12.3456 x 3 = 259.2576 -> 259.26; -2.5% = 6.4815 -> 6.48: 252.78
  { item: "PJ-3", quantity: 7, price: 12.3456, duration: 3, discount: 2.5, state_tax: 8.25 },
  { item: "CV-4", quantity: 1, price: 5, duration: 1 },
];

/** The same prices on a min-rate ticket: 2 x 10.1234 + 2 x 0.655 x 3 = 24.1768 -> 24.18. */
const MIN_RATE: Case[] = [
  { item: "MR-1", quantity: 2, minimum_rate: 10.1234, price: 0.655, duration: 3 },
  { item: "MR-2", quantity: 4, minimum_rate: 33.335, price: 12.3456, duration: 1, discount: 5 },
];

async function ticketOf(env: TestEnv, cases: Case[], minRate: boolean) {
  const db = env.tenant.db;
  const ticket = await makeTicket(db, { use_min_rate_logic: minRate });
  for (const [order, c] of cases.entries()) {
    const item = await makeItem(db, { item_number: c.item, item_description: "gasket kit" });
    const inv = await makeInventory(db, { item_id: item.id, serial_number: `${c.item}-LOT`, quantity: 500 });
    await makeLine(db, {
      ticket_id: ticket.id,
      inventory_id: inv.id,
      order,
      quantity: c.quantity,
      price: c.price,
      minimum_rate: c.minimum_rate ?? null,
      duration: c.duration,
      markup: c.markup ?? null,
      discount: c.discount ?? null,
      state_tax: c.state_tax ?? null,
    });
  }
  return ticket;
}

const PRICE = /^-?\$[\d,]+\.\d{2,4}$/;
const NUMBER = /^[\d,]+(\.\d+)?$/;
const PERCENT = /^[\d.]+%$/;
const value = (s: string) => Number(s.replace(/[$,%]/g, ""));
/** Half-up to cents of the decimal the figures stand for (the reader's pencil). */
const round2 = (x: number) => Math.round(Number((x * 100).toPrecision(12))) / 100;

/**
 * What a reader does with one printed row: quantity, days and rates as printed; markup, then discount of
 * base plus markup, each rounded to the cent; the amount they make.
 */
function readerAmount(
  r: { qty: number; days: number; rate: number; minRate?: number; markup: number; discount: number },
) {
  const base = round2(r.qty * (r.minRate ?? 0) + r.qty * r.rate * r.days);
  const markup = round2(base * r.markup / 100);
  const discount = round2((base + markup) * r.discount / 100);
  return round2(base + markup - discount);
}

/** The rows of the PDF's line table, from each item number to the next (or the totals). */
function pdfRows(text: string, starts: string[]) {
  const lines = text.split("\n");
  const end = lines.indexOf("Subtotal");
  const at = starts.map((s) => lines.indexOf(s));
  return at.map((from, i) => {
    assert.ok(from > 0 && from < end, `row ${starts[i]} printed`);
    // Cells after the item (number, description) and its dates.
    return lines.slice(from + 2, at[i + 1] ?? end).filter((l) => !/^\d\d-\d\d-\d{4}$|^to /.test(l));
  });
}

Deno.test("unit prices - the PDF prints each rate as entered; qty x rate x days (+ markup, - discount) is the printed amount", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const texts: string[] = [];
    for (const [cases, minRate] of [[CASES, false], [MIN_RATE, true]] as const) {
      const ticket = await ticketOf(env, cases, minRate);
      const res = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}&type=ticket`, { token });
      assert.equal(res.status, 200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // UNIT_PRICE_PDF=<file>: keep the document to look at (pdftoppm -png -r 80).
      const keep = Deno.env.get("UNIT_PRICE_PDF");
      if (keep) await Deno.writeFile(`${keep}${minRate ? "-min-rate" : ""}.pdf`, bytes);
      const text = pdfText(bytes);
      texts.push(text);
      const rows = pdfRows(text, cases.map((c) => c.item));
      for (const [i, cells] of rows.entries()) {
        const c = cases[i];
        const numbers = cells.filter((s) => NUMBER.test(s)).map(value);
        const prices = cells.filter((s) => PRICE.test(s));
        const percents = cells.filter((s) => PERCENT.test(s)).map(value);
        // Qty, Days; then Min Rate (min-rate tickets) and Rate; Amount, Tax, Total.
        const [qty, days] = numbers;
        const rates = prices.slice(0, minRate ? 2 : 1);
        const [amount, tax, total] = prices.slice(-3).map(value);
        const rate = value(rates[rates.length - 1]);
        // The rates print as entered: 0.655 as $0.655, never $0.66.
        assert.equal(rate, c.price, `${c.item}: rate printed as entered (${rates.join(", ")})`);
        if (minRate) assert.equal(value(rates[0]), c.minimum_rate, `${c.item}: min rate as entered`);
        // Markup and discount print only when set; the fixtures set both or the discount alone.
        const [markup, discount] = percents.length === 2 ? percents : [0, percents[0] ?? 0];
        const reader = readerAmount({
          qty,
          days,
          rate,
          minRate: minRate ? value(rates[0]) : undefined,
          markup,
          discount,
        });
        assert.equal(amount, reader, `${c.item}: ${cells.join(" | ")}`);
        assert.equal(round2(amount + tax), total, `${c.item}: amount + tax = total`);
      }
    }
    // The figures, as a customer reads them.
    const lines = texts[0].split("\n");
    for (const s of ["$0.655", "$56.99", "$33.335", "$12.3456", "$5.00"]) assert.ok(lines.includes(s), s);
    assert.ok(!lines.includes("$0.66") && !lines.includes("$33.34"));
  }));

Deno.test("unit prices - Sales Data's xlsx holds each price as a number shown with 2 to 4 decimals; the figures reconcile", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ticket = await ticketOf(env, CASES, false);
    const mr = await ticketOf(env, MIN_RATE, true);
    const wb = new ExcelJS.Workbook();
    for (const t of [ticket, mr]) {
      const res = await env.request(
        `/api/sales/sales/download?ticket_number=${t.ticket_number}&invoicedOnly=false`,
        { token },
      );
      assert.equal(res.status, 200);
      await wb.xlsx.load(await res.arrayBuffer());
      const sheet = wb.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
      const col = (name: string) => {
        const i = header.indexOf(name);
        assert.ok(i >= 0, `column ${name}`);
        return i + 1;
      };
      const cases = t === ticket ? CASES : MIN_RATE;
      const minRate = t === mr;
      assert.equal(sheet.rowCount, cases.length + 1, "one row per line");
      for (let r = 2; r <= sheet.rowCount; r++) {
        const row = sheet.getRow(r);
        const cell = (name: string) => row.getCell(col(name));
        const c = cases.find((x) => x.item === cell("Item #").value)!;
        assert.ok(c, `row ${r} is a fixture line`);
        const price = cell("Price/Addl. Day Rate");
        assert.equal(typeof price.value, "number", "a number, never text");
        assert.equal(price.value, c.price);
        assert.equal(price.numFmt, UNIT_PRICE_XLSX_FORMAT);
        if (minRate) {
          assert.equal(cell("Min Rate").value, c.minimum_rate);
          assert.equal(cell("Min Rate").numFmt, UNIT_PRICE_XLSX_FORMAT);
        }
        for (const k of ["Tax", "Total"]) {
          assert.equal(typeof cell(k).value, "number");
          assert.equal(cell(k).numFmt, "#,##0.00");
        }
        // Sales Data has no markup column (the spec's columns): the reader checks lines without one.
        if (c.markup) continue;
        const reader = readerAmount({
          qty: cell("Quantity").value as number,
          days: cell("Duration/Addl. Days").value as number,
          rate: price.value as number,
          minRate: minRate ? cell("Min Rate").value as number : undefined,
          markup: 0,
          discount: (cell("Discount").value as number | null) ?? 0,
        });
        const total = cell("Total").value as number;
        const tax = cell("Tax").value as number;
        assert.equal(round2(total - tax), reader, `${c.item}: total less tax is what the figures make`);
      }
    }
  }));

Deno.test("unit prices - more than 4 decimals is refused with a clear 422, on lines and items", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const ticket = await makeTicket(db);
    const inv = await makeInventory(db, { quantity: 50 });
    const line = (price: number) =>
      env.request("/api/sales/sales", {
        token,
        method: "POST",
        json: {
          ticket_id: ticket.id,
          inventory_id: inv.id,
          quantity: 1,
          price,
          duration: 1,
          start_date: "2026-03-01T08:00",
        },
      });
    const refused = await line(0.65549);
    assert.equal(refused.status, 422);
    const body = await refused.json();
    assert.equal(body.detail, "price: Price may have at most 4 decimal places");
    assert.deepEqual(body.errors, [{ path: "price", message: "Price may have at most 4 decimal places" }]);
    assert.equal((await line(12.3456)).status, 200);

    const item = await env.request("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "GK-9", inventory_type: "Itemized", rate: 1.23456 },
    });
    assert.equal(item.status, 422);
    assert.equal((await item.json()).errors[0].message, "Rate may have at most 4 decimal places");
  }));
