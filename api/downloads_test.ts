import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../scripts/testing/harness.ts";
import { routeTable } from "../scripts/testing/routes.ts";
import { XLSX_TYPE } from "./lib/xlsx.ts";
import { makeInspection, makeJob } from "../db/factories.ts";
import { inspections, inventory_audit } from "../db/schema/mod.ts";

Deno.test("downloads - every download route answers the spec's call (page=-1) with a readable xlsx", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db, {});
    // A serial's history downloads the serial the path names: one with an inspection.
    await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "SN-DL" });
    const downloads = routeTable(env.app).filter((r) => r.method === "GET" && r.path.endsWith("/download"));
    assert.ok(downloads.length >= 9, `found ${downloads.length}`);
    for (const { path } of downloads) {
      // As the spec writes the call, and as our own screens send it.
      for (const query of ["page=-1", "page=1&rowsPerPage=-1"]) {
        const res = await env.request(`${path.replace(":serial", "SN-DL")}?${query}`, { token });
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
