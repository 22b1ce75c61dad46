import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { inventory_audit } from "../../../db/schema/mod.ts";
import type { InStatement } from "@libsql/client";
import { makeRow, makeUnit, planOf, recordingCtx, send, tokenWith } from "../inventory/test_fixtures.ts";
import { listInventoryAudit } from "./service.ts";
import { AUDIT_SORTS, AuditListQuery } from "./schemas.ts";

const PATH = "/api/sales/audit/inventory-rows";

type Audit = typeof inventory_audit.$inferInsert;

/** Audit rows as ticket work will write them (tickets are not built yet): straight into the table. */
async function logged(env: TestEnv, rows: Partial<Audit>[]) {
  await env.tenant.db.insert(inventory_audit).values(
    rows.map((r, i) => ({
      action: "Sold",
      action_time: `2024-01-${String(10 + i).padStart(2, "0")}T08:00:00.000Z`,
      ...r,
    })),
  );
}

const serials = (body: { results: { serial_number: string }[] }) => body.results.map((r) => r.serial_number);

Deno.test("audit log - newest first, each filter narrowing, dates on the start date or the day", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    await logged(env, [
      { serial_number: "A-1", item_number: "SW-1", ticket_number: "T-100", customer_name: "Apache" },
      { serial_number: "A-2", item_number: "SW-1", invoice_number: "INV-7", sales_rep_name: "Dana Rep" },
      { serial_number: "B-50%", item_number: "HM-2", start_date: "2024-03-05T14:00" },
      { serial_number: "B-3", item_number: "HM-2", customer_name: "Devon", ticket_number: "T-200" },
    ]);
    const list = (q = "") => env.json(`${PATH}?${q}`, { token });
    assert.deepEqual(serials(await list()), ["B-3", "B-50%", "A-2", "A-1"]);
    assert.deepEqual(serials(await list("sortBy=action_time&descending=false")), [
      "A-1",
      "A-2",
      "B-50%",
      "B-3",
    ]);
    assert.deepEqual(serials(await list("serial_number=a-")), ["A-2", "A-1"]);
    assert.deepEqual(serials(await list("serial_number=50%25")), ["B-50%"]);
    assert.deepEqual(serials(await list("item_number=hm")), ["B-3", "B-50%"]);
    assert.deepEqual(serials(await list("ticket_number=T-")), ["B-3", "A-1"]);
    assert.deepEqual(serials(await list("invoice_number=inv")), ["A-2"]);
    assert.deepEqual(serials(await list("customer_name=apa")), ["A-1"]);
    assert.deepEqual(serials(await list("sales_rep_name=dana")), ["A-2"]);
    assert.deepEqual(serials(await list("start_date_begin=2024-01-11&start_date_end=2024-01-13")), [
      "B-3",
      "A-2",
    ]);
    assert.deepEqual(serials(await list("start_date_begin=2024-03-01")), ["B-50%"], "its start date counts");
    assert.deepEqual(serials(await list("start_date_end=2024-01-10T23:59:00Z")), ["A-1"]);
    assert.deepEqual(serials(await list("serial_number=&ticket_number=")), ["B-3", "B-50%", "A-2", "A-1"]);
    const bad = await env.json(`${PATH}?start_date_begin=yesterday`, { token, status: 422 });
    assert.equal(bad.errors[0].message, "Must be a date (YYYY-MM-DD)");
  }));

Deno.test("audit log - pages of 10 by default, and the row shape the page shows", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Yard"], "Odessa");
    const row = await makeRow(env, { business_unit_id: unit.id, serial_number: "AUD-1", quantity: 12 });
    for (let i = 0; i < 11; i++) {
      await send(env, token, "POST", "/api/sales/inventory/location-transfer", {
        inventory_id: row.id,
        fromLocation: i % 2 ? "Yard" : "Base",
        toLocation: i % 2 ? "Base" : "Yard",
        quantity: 1,
      });
    }
    const page = await env.json(PATH, { token });
    assert.equal(page.total, 11);
    assert.equal(page.results.length, 10);
    const last = await env.json(`${PATH}?page=2`, { token });
    assert.equal(last.results.length, 1);
    const first = page.results[0];
    assert.deepEqual(Object.keys(first).sort(), [
      "action",
      "action_time",
      "business_unit",
      "calculated_inventory_status",
      "category",
      "customer_name",
      "id",
      "inventory_id",
      "invoice_number",
      "item",
      "locations",
      "quantity",
      "quantity_change",
      "sales_rep_name",
      "serial_number",
      "start_date",
      "status",
      "ticket_number",
      "updated_by",
    ]);
    assert.equal(first.action, "Location Transfer");
    assert.equal(first.updated_by.name, "Administrator");
    assert.equal(first.business_unit, "Odessa");
    assert.equal(first.locations, "Yard: 1");
    assert.equal(first.item.item_description, "3in 1502 swivel joint");
    assert.equal(
      (await env.json(`${PATH}?rowsPerPage=200&inventory_id=${row.id}`, { token })).results.length,
      11,
    );
  }));

Deno.test("audit log - the download holds the filtered log as Inventory-Audit-<date>.xlsx", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await logged(env, [
      { serial_number: "X-1", item_number: "SW-1", item_description: "Swivel", updated_by_name: "Pat" },
      { serial_number: "=cmd", item_number: "SW-1" },
      { serial_number: "Y-1", item_number: "HM-2" },
    ]);
    const res = await env.request(`${PATH}/download?item_number=SW-1&page=3&rowsPerPage=10`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.match(
      res.headers.get("content-disposition")!,
      /^attachment; filename="Inventory-Audit-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0];
    assert.equal(ws.rowCount, 3);
    assert.deepEqual((ws.getRow(1).values as unknown[]).slice(1, 7), [
      "Action Time",
      "Action",
      "Updated By",
      "Serial Number",
      "Item Number",
      "Item",
    ]);
    assert.deepEqual((ws.getRow(2).values as unknown[]).slice(2, 7), ["Sold", "", "'=cmd", "SW-1", ""]);
    assert.deepEqual((ws.getRow(3).values as unknown[]).slice(2, 7), [
      "Sold",
      "Pat",
      "X-1",
      "SW-1",
      "Swivel",
    ]);
  }));

Deno.test("audit log - the company's staff read it; customer users and strangers do not", () =>
  withEnv(async (env) => {
    await logged(env, [{ serial_number: "S" }]);
    const general = await tokenWith(env, []);
    const customer = await tokenWith(env, [], (await makeCompany(env.tenant.db)).id);
    assert.equal((await env.json(PATH, { token: general })).total, 1);
    await env.json(PATH, { token: customer, status: 403 });
    await env.json(`${PATH}/download`, { token: customer, status: 403 });
    await env.json(PATH, { status: 401 });
    const other = await env.addTenant("globex", "globex.test");
    const theirs = await env.json(PATH, {
      token: await env.login(undefined, undefined, "globex.test"),
      host: "globex.test",
    });
    assert.equal(theirs.total, 0);
    assert.ok(other);
  }));

Deno.test("audit log - each row's calculated inventory status follows the row's quantities and status", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeUnit(env, ["Yard"], "Odessa");
    const row = await makeRow(env, { business_unit_id: unit.id, serial_number: "CALC-1", quantity: 2 });
    const move = (fromLocation: string, toLocation: string, quantity: number) =>
      send(env, token, "POST", "/api/sales/inventory/location-transfer", {
        inventory_id: row.id,
        fromLocation,
        toLocation,
        quantity,
      });
    await move("Base", "Yard", 1);
    await move("Base", "Yard", 1);
    await move("Yard", "Base", 2);
    await send(env, token, "PUT", "/api/sales/inventory", { id: row.id, status: "Repair" });
    await send(env, token, "PUT", "/api/sales/inventory", { id: row.id, status: "Available", quantity: 0 });
    const log = await env.json(`${PATH}?inventory_id=${row.id}&sortBy=action_time&descending=false`, {
      token,
    });
    assert.deepEqual(
      log.results.map((r: { action: string; calculated_inventory_status: string }) => [
        r.action,
        r.calculated_inventory_status,
      ]),
      [
        ["Location Transfer", "Available"],
        ["Location Transfer", "Out"],
        ["Location Transfer", "Available"],
        ["Updated", "Repair"],
        ["Updated", "Out"],
      ],
    );
    const list = await env.json(`/api/sales/inventory?include_hidden=true`, { token });
    assert.equal(list.results[0].calculated_inventory_status, "Out", "the inventory list says the same");
  }));

Deno.test("audit log - every sort reads a page's ids from an index in its order, never sorting every row", () =>
  withEnv(async (env) => {
    await env.tenant.client.execute(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
      insert into inventory_audit (action, action_time, updated_by_name, serial_number, item_number, status,
        quantity, business_unit)
      select 'Action ' || (i % 13), '2024-01-01T00:00:' || printf('%02d', i % 60) || '.000Z', 'User ' || (i % 17),
        'SN-' || i, 'IT-' || (i % 50), case i % 3 when 0 then 'Out' else 'Available' end, i % 40, 'Unit ' || (i % 5)
      from n`);
    await env.tenant.client.execute("analyze");
    const user = await env.json("/api/admin/users/me", { token: await env.login() });
    for (const sortBy of AUDIT_SORTS) {
      for (const descending of ["false", "true"]) {
        const log: InStatement[] = [];
        await listInventoryAudit(
          recordingCtx(env, user, log),
          AuditListQuery.parse({ sortBy, descending, page: "30" }),
        );
        const page = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
        const plan = await planOf(env, page);
        const text = plan.map((l) => l.detail).join("\n");
        assert.doesNotMatch(text, /^SCAN inventory_audit$/m, `${sortBy}: no scan of every row:\n${text}`);
        for (const l of plan.filter((l) => /TEMP B-TREE/.test(l.detail))) {
          assert.equal(l.parent, 0, `${sortBy} ${descending}: a sort of every row:\n${text}`);
        }
      }
    }
  }));

Deno.test("audit log - the total with no filter is the rows kept by triggers, through inserts and deletes", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const user = await env.json("/api/admin/users/me", { token });
    const list = async (query: Record<string, string>) => {
      const log: InStatement[] = [];
      const { total } = await listInventoryAudit(recordingCtx(env, user, log), AuditListQuery.parse(query));
      const counted = log.some((s) => /\bcount\(/i.test(typeof s === "string" ? s : s.sql));
      const every =
        (await env.json(`${PATH}?page=-1&${new URLSearchParams(query)}`, { token })).results.length;
      return { total, every, counted };
    };
    assert.deepEqual(await list({}), { total: 0, every: 0, counted: false });
    await logged(env, [{ serial_number: "A-1" }, { serial_number: "B-2" }, { serial_number: "A-3" }]);
    // Through the app's own writes too: a stock row made and changed writes its audit rows.
    const row = await makeRow(env, { serial_number: "C-4" });
    await send(env, await tokenWith(env, ["sales-admin"]), "PUT", "/api/sales/inventory", {
      id: row.id,
      quantity: 5,
    });
    const made = await list({});
    assert.equal(made.counted, false, "no filter: the kept count");
    assert.equal(made.total, made.every);
    assert.ok(made.total >= 4, String(made.total));
    await env.tenant.client.execute("delete from inventory_audit where serial_number = 'B-2'");
    const after = await list({});
    assert.deepEqual(
      after,
      { total: made.total - 1, every: made.total - 1, counted: false },
      "a row deleted",
    );
    const filtered = await list({ serial_number: "A-" });
    assert.deepEqual(filtered, { total: 2, every: 2, counted: true }, "a filter is counted");
  }));
