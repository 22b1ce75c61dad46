import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { companies, inventory_audit } from "../../../db/schema/mod.ts";
import { tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/audit/inventory-rows";
const serials = (body: { results: { serial_number: string }[] }) => body.results.map((r) => r.serial_number);

Deno.test("audit log - the start date filters are the company's days, not UTC's (Asia/Kolkata)", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "Asia/Kolkata" } }).where(eq(companies.id, 1));
    const token = await tokenWith(env, []);
    // Kolkata is UTC+5:30: its 4th runs from 18:30 UTC on the 3rd to 18:30 UTC on the 4th. A row counts
    // on its start date (ticket lines) when it has one, else on its action time.
    await db.insert(inventory_audit).values([
      { action: "Sold", serial_number: "ACT-3RD", action_time: "2026-03-03T18:29:59.999Z" },
      { action: "Sold", serial_number: "ACT-4TH-EARLY", action_time: "2026-03-03T18:30:00.000Z" },
      { action: "Sold", serial_number: "ACT-4TH-LATE", action_time: "2026-03-04T18:29:00.000Z" },
      { action: "Sold", serial_number: "ACT-5TH", action_time: "2026-03-04T18:30:00.000Z" },
      // Acted on the 4th (UTC and Kolkata), but the line starts at 01:00 on the 5th in Kolkata.
      {
        action: "Check In",
        serial_number: "START-5TH",
        action_time: "2026-03-04T08:00:00.000Z",
        start_date: "2026-03-04T19:30:00Z",
      },
      // Acted on the 5th, but the line starts at 23:00 on the 4th in Kolkata (the 4th in UTC too).
      {
        action: "Check In",
        serial_number: "START-4TH",
        action_time: "2026-03-05T08:00:00.000Z",
        start_date: "2026-03-04T17:30:00Z",
      },
    ]);
    const list = async (q: string) =>
      serials(await env.json(`${PATH}?${q}&sortBy=action_time&descending=false`, { token })).sort();

    const fourth = "start_date_begin=2026-03-04&start_date_end=2026-03-04";
    assert.deepEqual(await list(fourth), ["ACT-4TH-EARLY", "ACT-4TH-LATE", "START-4TH"]);
    assert.deepEqual(await list(`${fourth}&page=-1`), ["ACT-4TH-EARLY", "ACT-4TH-LATE", "START-4TH"]);
    assert.deepEqual(await list("start_date_end=2026-03-03"), ["ACT-3RD"]);
    // An instant (as an older client's date picker sent its midnight) names its day on the company's clock.
    assert.deepEqual(
      await list("start_date_begin=2026-03-03T18:30:00.000Z&start_date_end=2026-03-04T00:00:00Z"),
      [
        "ACT-4TH-EARLY",
        "ACT-4TH-LATE",
        "START-4TH",
      ],
    );
    assert.deepEqual(await list("start_date_begin=2026-03-05"), ["ACT-5TH", "START-5TH"]);

    const res = await env.request(`${PATH}/download?${fourth}`, { token });
    assert.equal(res.status, 200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    const got = [2, 3, 4].map((r) => String(ws.getRow(r).getCell(4).value)).sort();
    assert.deepEqual(got, ["ACT-4TH-EARLY", "ACT-4TH-LATE", "START-4TH"]);
    assert.equal(ws.rowCount, 4);
  }));
