import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { companies } from "../../../db/schema/mod.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import type { InStatement } from "@libsql/client";
import { makeItemOf, makeRow, planOf, recordingCtx, tokenWith } from "../inventory/test_fixtures.ts";
import { listSales } from "./list.ts";
import { SalesListQuery } from "./schemas.ts";

const PATH = "/api/sales/sales";
const serials = (body: { results: { sales_inventory: { serial_number: string } }[] }) =>
  body.results.map((r) => r.sales_inventory.serial_number);

Deno.test("sales data - the From/To days are the company's days, not UTC's (America/Chicago)", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "America/Chicago" } }).where(eq(companies.id, 1));
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    const ticket = await makeTicket(db, { use_min_rate_logic: false });
    // Chicago is UTC-6 in March: its 4th runs from 06:00 UTC on the 4th to 06:00 UTC on the 5th.
    const starts: [string, string][] = [
      ["EVE-3RD", "2026-03-04T01:30:00Z"], // 19:30 on the 3rd in Chicago, the 4th in UTC
      ["DAWN-4TH", "2026-03-04T06:00:00Z"], // 00:00 on the 4th
      ["LATE-4TH", "2026-03-05T05:59:00Z"], // 23:59 on the 4th, the 5th in UTC
      ["MIDNIGHT-5TH", "2026-03-05T06:00:00Z"], // 00:00 on the 5th
    ];
    for (const [serial_number, start_date] of starts) {
      const row = await makeRow(env, { item_id: item.id, serial_number, quantity: 10 });
      await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id, start_date });
    }
    const list = async (q: string) => serials(await env.json(`${PATH}?${q}&sortBy=start_date`, { token }));

    const fourth = "start_date_begin=2026-03-04&start_date_end=2026-03-04";
    assert.deepEqual(await list(fourth), ["DAWN-4TH", "LATE-4TH"]);
    assert.deepEqual(await list(`${fourth}&page=-1`), ["DAWN-4TH", "LATE-4TH"], "every row (page=-1)");
    assert.deepEqual(await list("start_date_end=2026-03-03"), ["EVE-3RD"]);
    assert.deepEqual(await list("start_date_begin=2026-03-05"), ["MIDNIGHT-5TH"]);
    assert.equal((await env.json(`${PATH}?${fourth}`, { token })).total, 2);

    const res = await env.request(`${PATH}/download?${fourth}&sortBy=start_date`, { token });
    assert.equal(res.status, 200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    assert.deepEqual([2, 3].map((r) => ws.getRow(r).getCell(9).value), ["DAWN-4TH", "LATE-4TH"]);
    assert.equal(ws.rowCount, 3, "the header and the 4th's two lines");

    // The stored start is compared as it is: the count reads a range of its index.
    const log: InStatement[] = [];
    const user = await env.json("/api/admin/users/me", { token });
    await listSales(recordingCtx(env, user, log), SalesListQuery.parse({ start_date_begin: "2026-03-04" }));
    const counted = log.find((st) => /count\(/i.test(typeof st === "string" ? st : st.sql))!;
    const plan = (await planOf(env, counted)).map((l) => l.detail).join("\n");
    assert.match(plan, /USING (COVERING )?INDEX sales_start_idx \(start_date>\?\)/, plan);
  }));

Deno.test("sales data - Invoiced From/To are calendar dates, read through the invoice date's index", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "Asia/Tokyo" } }).where(eq(companies.id, 1));
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Itemized", { item_number: "SW3", item_description: "Swivel" });
    for (const [serial_number, invoice_date] of [["INV-3RD", "2026-03-03"], ["INV-4TH", "2026-03-04"]]) {
      const ticket = await makeTicket(db, { status: "APP", isInvoice: true, invoice_date });
      const row = await makeRow(env, { item_id: item.id, serial_number, quantity: 10 });
      await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id });
    }
    // The plan first: the lists below would leave the total cached.
    const log: InStatement[] = [];
    const user = await env.json("/api/admin/users/me", { token });
    await listSales(
      recordingCtx(env, user, log),
      SalesListQuery.parse({ invoice_date_begin: "2026-03-04", invoice_date_end: "2026-03-04" }),
    );
    const counted = log.find((st) => /count\(/i.test(typeof st === "string" ? st : st.sql))!;
    const plan = (await planOf(env, counted)).map((l) => l.detail).join("\n");
    assert.match(plan, /INDEX tickets_invoice_date_idx \(invoice_date>\? AND invoice_date<\?\)/, plan);
    const list = async (q: string) => serials(await env.json(`${PATH}?${q}`, { token }));
    assert.deepEqual(await list("invoice_date_begin=2026-03-04&invoice_date_end=2026-03-04"), ["INV-4TH"]);
    assert.deepEqual(await list("invoice_date_end=2026-03-03"), ["INV-3RD"], "no zone: the date as stored");
  }));
