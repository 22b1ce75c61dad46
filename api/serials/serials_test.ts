import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob } from "../../db/factories.ts";
import type { SerialEvent, SerialHistory } from "./schemas.ts";
import { SERIAL, serialWithHistory } from "./test_fixtures.ts";

const PATH = `/api/serials/${SERIAL}`;

/** Each event as "kind what": enough to read the order at a glance. */
const line = (e: SerialEvent) =>
  e.kind === "inspection"
    ? `inspection ${e.inspection.job.job_number}`
    : e.kind === "ticket"
    ? `ticket ${e.ticket.ticket_number}`
    : `audit ${e.audit.action}`;

const TIMELINE = [
  "inspection J-NEW",
  "audit Location Transfer",
  "audit Reclass Out",
  "audit Check In",
  "ticket T-900",
  "inspection J-OLD",
];

Deno.test("serial history - inspections, ticket lines, check-in, reclass and transfer on one timeline, newest first", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    const body: SerialHistory = await env.json(`/api/serials/pv-100`, { token: h.token });
    assert.equal(body.serial, "pv-100");
    assert.equal(body.total, 6);
    assert.deepEqual(body.events.map(line), TIMELINE);
    assert.deepEqual(
      body.units.map((u) => [u.business_unit, u.quantity]).sort(),
      [
        ["Odessa", 9],
        [body.units.find((u) => u.business_unit !== "Odessa")!.business_unit, 1],
      ].sort(),
    );
    const [latest, , , checkIn, ticket, oldest] = body.events;
    assert.equal(
      latest.kind === "inspection" && latest.inspection.pressure_test_pdf?.startsWith("/api/files/"),
      true,
    );
    assert.equal(
      oldest.kind === "inspection" && oldest.inspection.pressure_test_pdf,
      null,
      "no PDF, no link",
    );
    assert.equal(
      oldest.kind === "inspection" && oldest.inspection.report,
      `/api/pt/inspections/${h.inspections[0]}/report`,
    );
    assert.equal(oldest.serial_number, "pv-100", "matched whatever the case");
    assert.equal(ticket.kind === "ticket" && ticket.ticket.id, h.ticketId);
    assert.deepEqual(
      checkIn.kind === "audit" &&
        [checkIn.audit.quantity_change, checkIn.audit.updated_by, checkIn.audit.ticket_number],
      [2, "Administrator", "T-900"],
    );
  }));

Deno.test("serial history - pages of the merged timeline, every row with page -1, past the end empty", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    const page = (q: string): Promise<SerialHistory> => env.json(`${PATH}?${q}`, { token: h.token });
    const pages = await Promise.all([1, 2, 3].map((p) => page(`page=${p}&rowsPerPage=2`)));
    assert.deepEqual(pages.map((p) => p.events.map(line)), [
      TIMELINE.slice(0, 2),
      TIMELINE.slice(2, 4),
      TIMELINE.slice(4),
    ]);
    assert.ok(pages.every((p) => p.total === 6));
    assert.deepEqual((await page("page=2&rowsPerPage=5")).events.map(line), TIMELINE.slice(5));
    const past = await page("page=9&rowsPerPage=5");
    assert.deepEqual([past.events, past.total, past.units.length], [[], 6, 2]);
    const all = await page("page=-1");
    assert.deepEqual([all.events.map(line), all.total, all.units.length], [TIMELINE, 6, 2]);
    assert.deepEqual((await page("rowsPerPage=-1")).events.map(line), TIMELINE);
    assert.equal((await page("")).events.length, 6, "25 a page by default");
  }));

Deno.test("serial history - a customer user sees only their own company's inspections: no stock, tickets or audit", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    const { token } = await env.userWithToken({ company_id: h.customerId, permissions: ["inspector"] });
    const body: SerialHistory = await env.json(PATH, { token });
    assert.deepEqual([body.events.map(line), body.total, body.units], [["inspection J-OLD"], 1, []]);
    const file = await env.request(`${PATH}/download?page=-1`, { token });
    const ws = await sheet(file);
    assert.equal(ws.rowCount, 2);
    // Another customer: nothing of this serial is theirs, so it is not found, as an unknown serial is.
    const other = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    const stranger = (await env.userWithToken({ company_id: other.id })).token;
    const refused = await env.json(PATH, { token: stranger, status: 404 });
    assert.equal(refused.detail, "No history for this serial number.");
    await env.json(`${PATH}/download?page=-1`, { token: stranger, status: 404 });
    await env.json(`/api/serials/NOPE-1`, { token: h.token, status: 404 });
    await env.json(PATH, { status: 401 });
  }));

Deno.test("serial history - a Data-Entry user sees the inspections of their assigned jobs only", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const [mine, theirs] = [await makeJob(db), await makeJob(db)];
    await makeInspection(db, { job_id: mine.id, serial_number: "DE-1" });
    await makeInspection(db, { job_id: theirs.id, serial_number: "DE-1" });
    const { token } = await env.userWithToken({
      account_type: "Data-Entry",
      jobs: [mine.id],
      permissions: [],
    });
    const body: SerialHistory = await env.json(`/api/serials/DE-1`, { token });
    assert.deepEqual(body.events.map((e) => e.kind === "inspection" && e.inspection.job.id), [mine.id]);
  }));

Deno.test("serial history - the serial is 1 to 200 characters without control characters (422)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const bad = async (serial: string, message: string) => {
      const body = await env.json(`/api/serials/${encodeURIComponent(serial)}`, { token, status: 422 });
      assert.equal(body.errors[0].message, message, serial);
    };
    await bad("x".repeat(201), "Serial number must be at most 200 characters");
    await bad("   ", "Serial number is required");
    await bad("A\u0000B", "Control characters are not allowed");
    await bad("A\u001bB", "Control characters are not allowed");
    await env.json(`${PATH}?page=0`, { token, status: 422 });
    await env.json(`${PATH}?rowsPerPage=5000`, { token, status: 422 });
    // a slash, percent or quote in a serial is looked up as written
    await makeInspection(env.tenant.db, { serial_number: "A/B 50%'" });
    const odd: SerialHistory = await env.json(`/api/serials/${encodeURIComponent("a/b 50%'")}`, { token });
    assert.equal(odd.total, 1);
  }));

async function sheet(res: Response) {
  assert.equal(res.status, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  return wb.worksheets[0];
}

Deno.test("serial history - the download holds the whole timeline as Serial-<serial>-<date>.xlsx", () =>
  withEnv(async (env) => {
    const h = await serialWithHistory(env);
    const res = await env.request(`${PATH}/download?page=-1`, { token: h.token });
    assert.match(
      res.headers.get("content-disposition")!,
      /^attachment; filename="Serial-PV-100-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const ws = await sheet(res);
    assert.equal(ws.rowCount, 7);
    assert.deepEqual((ws.getRow(1).values as unknown[]).slice(1), [
      "Date",
      "Kind",
      "What",
      "Who",
      "Serial Number",
    ]);
    const kinds = [2, 3, 4, 5, 6, 7].map((r) => ws.getRow(r).getCell(2).value);
    assert.deepEqual(kinds, [
      "Inspection",
      "Location Transfer",
      "Reclass Out",
      "Check In",
      "Ticket",
      "Inspection",
    ]);
    assert.ok(ws.getRow(2).getCell(1).value instanceof Date, "the date is a spreadsheet date");
    assert.match(String(ws.getRow(6).getCell(3).value), /^T-900 · .* · 01-03-26 08:00 · Open · IT-\S+ × 3$/);
    assert.match(
      String(ws.getRow(7).getCell(3).value),
      /^Job J-OLD · dated 01-02-2026 · Visual Pass · UT 0\.500 · MPI Pass$/,
    );
    assert.equal(ws.getRow(4).getCell(4).value, "Administrator");
  }));
