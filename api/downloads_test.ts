import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import { XLSX_TYPE } from "./lib/xlsx.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../db/factories.ts";
import { downloadJobs } from "./pt/jobs/service.ts";
import { JobListQuery } from "./pt/jobs/schemas.ts";
import type { InStatement } from "@libsql/client";
import { isFileClient } from "../db/sqlite_client.ts";
import type { Ctx } from "./lib/context.ts";
import { loadSessionUser } from "./auth/service.ts";
import { makeItemOf, makeRow, makeUnit, recordingCtx } from "./sales/inventory/test_fixtures.ts";
import { downloadInspections, InspectionListQuery } from "./pt/inspections/service.ts";
import { downloadInventoryAudit } from "./sales/audit/service.ts";
import { AuditListQuery } from "./sales/audit/schemas.ts";
import {
  downloadInventory,
  downloadInventoryLocations,
  InventoryListQuery,
  LocationListQuery,
} from "./sales/inventory/service.ts";
import { inspections, inventory_audit, inventory_locations } from "../db/schema/mod.ts";

Deno.test("downloads - every download route answers the spec's call (page=-1) with a readable xlsx", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db, {});
    // A serial's history downloads the serial the path names: one with an inspection.
    await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "SN-DL" });
    const downloads = routeTable(env.app).filter((r) => r.method === "GET" && r.path.endsWith("/download"));
    assert.ok(downloads.length >= 9, `found ${downloads.length}`);
    // What a route's list itself requires (the categories are one list per model).
    // (the templates are one list per business unit).
    const unit = await makeUnit(env, [], "Download Unit");
    const required: Record<string, string> = {
      "/api/sales/categories/download": "model=Item%20Category&",
      "/api/sales/templates/download": `search_business_unit=${unit.id}&`,
    };
    for (const { path } of downloads) {
      // As the spec writes the call, and as our own screens send it.
      for (const query of ["page=-1", "page=1&rowsPerPage=-1"]) {
        const res = await env.request(`${path.replace(":serial", "SN-DL")}?${required[path] ?? ""}${query}`, {
          token,
        });
        assert.equal(res.status, 200, `${path}?${query}: ${res.status} ${await res.clone().text()}`);
        assert.equal(res.headers.get("content-type"), XLSX_TYPE);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(await res.arrayBuffer() as never);
        const header = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
        assert.ok(header.length >= 2 && header.every((h) => typeof h === "string" && h), `${path} header`);
      }
    }
  }));

Deno.test("downloads - a list of more rows than one database read streams every row once, in order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db, {});
    // Straight into the table, one statement: the subject is the download, not 2,300 saves.
    await env.tenant.db.insert(inspections).values(Array.from({ length: 2300 }, (_, i) => ({
      date: job.date,
      serial_number: `SN-${String(i).padStart(5, "0")}`,
      job_id: job.id,
      inspection_company_id: job.inspection_company_id,
      customer_company_id: job.customer_company_id,
      operator_company_id: job.operator_company_id,
    })));
    const res = await env.request(
      `/api/pt/inspections/download?page=-1&sortBy=serial_number&descending=false`,
      {
        token,
      },
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const serials: string[] = [];
    wb.worksheets[0].eachRow((row, n) => n > 1 && serials.push(String(row.getCell(2).value)));
    assert.equal(serials.length, 2300);
    assert.deepEqual(serials, Array.from({ length: 2300 }, (_, i) => `SN-${String(i).padStart(5, "0")}`));
  }));

Deno.test("downloads - a walk after the last row read (the default sorts) answers the pages' rows, ties and both directions", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db, {});
    const N = 2300; // several reads, of 100 rows up to 800
    // Three rows share each time: the walk's next read must start within a tie, by id.
    const time = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000).toISOString();
    // Inserted out of time order, so id order is not time order.
    const order = Array.from({ length: N }, (_, i) => (i * 7919) % N);
    await env.tenant.db.insert(inspections).values(order.map((i) => ({
      date: job.date,
      serial_number: `SN-${String(i).padStart(5, "0")}`,
      inspection_time: time(i),
      job_id: job.id,
      inspection_company_id: job.inspection_company_id,
      customer_company_id: job.customer_company_id,
      operator_company_id: job.operator_company_id,
    })));
    // In parts: an audit row binds 20 values, past SQLite's limit of variables for one statement.
    for (let at = 0; at < N; at += 500) {
      await env.tenant.db.insert(inventory_audit).values(
        order.slice(at, at + 500).map((i) => ({
          action: "Sold",
          serial_number: `AU-${String(i).padStart(5, "0")}`,
          action_time: time(i),
        })),
      );
    }
    const serials = (rows: { serial_number: string }[]) => rows.map((r) => r.serial_number);
    for (
      const [path, sortBy] of [["/api/pt/inspections", "inspection_time"], [
        "/api/sales/audit/inventory-rows",
        "action_time",
      ]]
    ) {
      for (const dir of ["", `&sortBy=${sortBy}&descending=false`, `&sortBy=${sortBy}&descending=true`]) {
        const paged: string[] = [];
        for (let page = 1; page <= 3; page++) {
          paged.push(
            ...serials((await env.json(`${path}?rowsPerPage=1000&page=${page}${dir}`, { token })).results),
          );
        }
        assert.equal(paged.length, N, `${path}${dir}: the pages`);
        assert.equal(new Set(paged).size, paged.length, `${path}${dir}: no row twice`);
        const all = serials((await env.json(`${path}?page=-1${dir}`, { token })).results);
        assert.deepEqual(all, paged, `${path}?page=-1${dir}`);
        const res = await env.request(`${path}/download?page=-1${dir}`, { token });
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(await res.arrayBuffer() as never);
        const ws = wb.worksheets[0];
        const column = (ws.getRow(1).values as string[]).indexOf("Serial Number");
        const file: string[] = [];
        ws.eachRow((row, n) => n > 1 && file.push(String(row.getCell(column).value)));
        assert.deepEqual(file, paged, `${path}/download?page=-1${dir}`);
      }
    }
  }));

Deno.test("downloads - a job out of the caller's scope is 404 before any byte of a file is sent", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db, {});
    const { token } = await env.userWithToken({ account_type: "Data-Entry", jobs: [] });
    const res = await env.request(`/api/pt/inspections/download?page=-1&job_id=${job.id}`, { token });
    assert.equal(res.status, 404);
  }));

Deno.test("downloads - other orders are walked once by their ids, never by OFFSET pages, and match the pages", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const job = await makeJob(db, {});
    const partIds = [
      (await makePart(db, { name: "b-valve" })).id,
      (await makePart(db, { name: "A-seat" })).id,
      null,
    ];
    const N = 450;
    await db.insert(inspections).values(Array.from({ length: N }, (_, i) => ({
      date: job.date,
      serial_number: `SN-${String((i * 7) % 97).padStart(3, "0")}`,
      part_id: partIds[i % 3],
      inspection_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      job_id: job.id,
      inspection_company_id: job.inspection_company_id,
      customer_company_id: job.customer_company_id,
      operator_company_id: job.operator_company_id,
    })));
    await db.insert(inventory_audit).values(Array.from({ length: N }, (_, i) => ({
      action: "Sold",
      serial_number: i % 10 ? `AU-${String((i * 7) % 97).padStart(3, "0")}` : "",
      action_time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    })));
    const item = await makeItemOf(env, "Serialized", { item_number: "PV2", item_description: "Plug valve" });
    for (let i = 0; i < 40; i++) {
      const row = await makeRow(env, {
        item_id: item.id,
        serial_number: `PV-${(i * 7) % 13}-${i}`,
        quantity: 2 + (i % 3),
        // Stock at named locations (the location view's rows beside Base): names tied but for case, and
        // quantities tied with Base rows' available ones, also within one row.
        quantity_out_location: i % 3 ? 1 + (i % 2) : 0,
      });
      if (i % 3) {
        await db.insert(inventory_locations).values({
          inventory_id: row.id,
          name: ["Yard", "shop", "yard 2"][i % 4 % 3],
          quantity: 1 + (i % 2),
        });
      }
    }
    // Jobs: companies whose names tie but for case, days shared by several jobs.
    const names = ["acme", "ACME", "Basin", "delta"];
    const customers = await Promise.all(names.map((name) => makeCompany(db, { name })));
    const operators = await Promise.all(
      names.map((name) => makeCompany(db, { name, company_type: "operator_company" })),
    );
    for (let i = 0; i < 60; i++) {
      await makeJob(db, {
        job_number: `JN-${(i * 7) % 23}-${i}`,
        date: `2026-0${1 + (i % 3)}-1${i % 4}`,
        inspector: ["Ann", "bob", "Cy"][i % 3],
        customer_company_id: customers[i % 4].id,
        operator_company_id: operators[(i * 3) % 4].id,
      });
    }
    const { user } = (await loadSessionUser(db, 1))!;
    // [list path, query, xlsx columns, the rows' fields they are, download]
    const cases: [string, string, string[], string[], (ctx: Ctx, q: URLSearchParams) => Promise<Response>][] =
      [];
    for (const dir of ["false", "true"]) {
      for (const sortBy of ["", "customer", "operator", "inspector", "job_number"]) {
        cases.push([
          "/api/pt/jobs",
          `sortBy=${sortBy}&descending=${dir}`,
          ["Job Number"],
          ["job_number"],
          (ctx, q) => downloadJobs(ctx, JobListQuery.parse(Object.fromEntries(q))),
        ]);
      }
      for (const sortBy of ["serial_number", "part_name"]) {
        cases.push([
          "/api/pt/inspections",
          `sortBy=${sortBy}&descending=${dir}`,
          ["Serial Number"],
          ["serial_number"],
          (ctx, q) => downloadInspections(ctx, InspectionListQuery.parse(Object.fromEntries(q))),
        ]);
      }
      cases.push([
        "/api/sales/audit/inventory-rows",
        `sortBy=serial_number&descending=${dir}`,
        ["Serial Number"],
        ["serial_number"],
        (
          ctx,
          q,
        ) => downloadInventoryAudit(ctx, AuditListQuery.parse(Object.fromEntries(q))),
      ]);
      for (const sortBy of ["", "serial_number", "quantity"]) {
        cases.push([
          "/api/sales/inventory",
          `sortBy=${sortBy}&descending=${dir}`,
          ["Serial Number"],
          ["serial_number"],
          (ctx, q) => downloadInventory(ctx, InventoryListQuery.parse(Object.fromEntries(q))),
        ]);
      }
      for (const sortBy of ["", "serial_number", "location", "quantity"]) {
        cases.push([
          "/api/sales/inventory-locations",
          `sortBy=${sortBy}&descending=${dir}`,
          ["Serial Number", "Location", "Quantity"],
          ["serial_number", "location", "quantity"],
          (ctx, q) => downloadInventoryLocations(ctx, LocationListQuery.parse(Object.fromEntries(q))),
        ]);
      }
    }
    for (const [path, query, headers, fields, download] of cases) {
      const value = (r: Record<string, string | number | null>) => fields.map((f) => r[f] ?? "").join("|");
      const paged: string[] = [];
      for (let page = 1;; page++) {
        const { results } = await env.json(`${path}?rowsPerPage=100&page=${page}&${query}`, { token });
        paged.push(...results.map(value));
        if (results.length < 100) break;
      }
      assert.ok(paged.length >= 40, `${path}?${query}`);
      // Every row as JSON (page=-1), as the screens' "All" asks: the same walk.
      const all = await env.json(`${path}?page=-1&${query}`, { token });
      assert.deepEqual(
        all.results.map(value),
        paged,
        `${path}?page=-1&${query}`,
      );
      assert.equal(all.total, paged.length, `${path}?page=-1&${query}: the total`);
      const log: InStatement[] = [];
      const res = await download(recordingCtx(env, user, log), new URLSearchParams(query));
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await res.arrayBuffer() as never);
      const ws = wb.worksheets[0];
      const columns = headers.map((h) => (ws.getRow(1).values as string[]).indexOf(h));
      const file: string[] = [];
      ws.eachRow((row, n) =>
        n > 1 && file.push(columns.map((c) => String(row.getCell(c).value ?? "")).join("|"))
      );
      assert.deepEqual(file, paged, `${path}/download?${query}`);
      // A page read (limit and offset) is the OFFSET walk; the walk's own reads are by id.
      const pages = log.filter((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql));
      // A remote database has no cursor: there the download reads OFFSET pages (`idsInSteps`).
      assert.equal(
        pages.length > 0,
        !isFileClient(env.tenant.client),
        `${path}/download?${query}: read by OFFSET pages`,
      );
    }
  }));
