import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import type { MakeUser } from "../../../db/factories.ts";
import { VISUAL_PASS_MESSAGE } from "./schemas.ts";

const OWNER_ID = 1;

/** A signed-in user (default: General, of the owner company) holding exactly these roles. */
async function tokenWith(env: TestEnv, permissions: string[], over: MakeUser = {}) {
  return (await env.userWithToken({ permissions, company_id: OWNER_ID, ...over })).token;
}

const serials = (body: { results: { serial_number: string }[] }) => body.results.map((r) => r.serial_number);
type FieldErrors = { errors: { path: string; message: string }[] };
const errorsOf = (body: FieldErrors) => body.errors.map((e) => [e.path, e.message]);

Deno.test("inspections - an inspector creates; a job-admin updates (POST with id or PATCH) and deletes", () =>
  withEnv(async (env) => {
    const inspector = await tokenWith(env, ["inspector"]);
    const jobAdmin = await tokenWith(env, ["job-admin"]);
    const job = await makeJob(env.tenant.db);
    const part = await makePart(env.tenant.db, { name: "Plug Valve", description: "2in 1502" });
    const stranger = await makeCompany(env.tenant.db);
    const created = await env.json("/api/pt/inspections", {
      token: inspector,
      method: "POST",
      json: {
        job_id: job.id,
        date: "2024-05-06",
        serial_number: " SN-100 ",
        batch: "B1",
        part_id: part.id,
        visual_pass: true,
        ut_1: 0.25,
        ut_2: "0.5",
        ut_3: "",
        pressure: 15000,
        band_color: "Green",
        mpi_result: "Not Required",
        notes: "ok",
        custom: { rig: 7, pressure_test_pdf: "/api/files/999" },
        // never trusted: the companies come from the job
        customer_company_id: stranger.id,
        inspection_company_id: stranger.id,
      },
    });
    assert.equal(created.message, "Inspection created");
    assert.equal(created.serial_number, "SN-100");
    assert.equal(created.customer_company_id, job.customer_company_id);
    assert.equal(created.operator_company_id, job.operator_company_id);
    assert.equal(created.inspection_company_id, OWNER_ID);
    assert.deepEqual(created.part, { id: part.id, name: "Plug Valve", description: "2in 1502" });
    assert.deepEqual(created.job, { id: job.id, job_number: job.job_number, date: job.date });
    assert.equal(created.customer_company.id, job.customer_company_id);
    assert.equal(created.operator_company.id, job.operator_company_id);
    assert.deepEqual([created.ut_1, created.ut_2, created.ut_3, created.pressure], [0.25, 0.5, null, 15000]);
    assert.deepEqual(created.custom, { rig: 7 }, "the PDF link is derived, never taken from the body");
    assert.ok(created.inspection_time);

    const updated = await env.json("/api/pt/inspections", {
      token: jobAdmin,
      method: "POST",
      json: { id: created.id, job_id: job.id, date: "2024-05-07", band_color: "Red", ut_1: null },
    });
    assert.equal(updated.message, "Inspection updated");
    assert.equal(updated.id, created.id);
    assert.deepEqual([updated.date, updated.band_color, updated.ut_1], ["2024-05-07", "Red", null]);
    assert.equal(updated.batch, "B1", "absent fields are left as stored");
    assert.equal(updated.part.id, part.id);

    const patched = await env.json("/api/pt/inspections", {
      token: jobAdmin,
      method: "PATCH",
      json: { id: created.id, job_id: job.id, date: "2024-05-07", notes: "re-checked" },
    });
    assert.equal(patched.notes, "re-checked");
    assert.equal(patched.message, "Inspection updated");

    const gone = await env.json(`/api/pt/inspections/${created.id}`, { token: jobAdmin, method: "DELETE" });
    assert.deepEqual(gone, { message: "Inspection deleted" });
    await env.json(`/api/pt/inspections/${created.id}`, { token: jobAdmin, method: "DELETE", status: 404 });
    assert.equal((await env.json(`/api/pt/inspections?job_id=${job.id}`, { token: jobAdmin })).total, 0);
  }));

Deno.test("inspections - roles: General users, inspectors editing, job-admins entering and customers are refused", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const ins = await makeInspection(env.tenant.db, { job_id: job.id });
    const body = { job_id: job.id, date: "2024-05-06" };
    const general = await tokenWith(env, []);
    await env.json("/api/pt/inspections", { token: general, method: "POST", json: body, status: 403 });
    const inspector = await tokenWith(env, ["inspector"]);
    await env.json("/api/pt/inspections", {
      token: inspector,
      method: "POST",
      json: { ...body, id: ins.id },
      status: 403,
    });
    await env.json("/api/pt/inspections", { token: inspector, method: "PATCH", json: body, status: 403 });
    await env.json(`/api/pt/inspections/${ins.id}`, { token: inspector, method: "DELETE", status: 403 });
    const jobAdmin = await tokenWith(env, ["job-admin"]);
    await env.json("/api/pt/inspections", { token: jobAdmin, method: "POST", json: body, status: 403 });

    const customer = await tokenWith(env, ["inspector", "job-admin"], {
      company_id: job.customer_company_id,
    });
    await env.json("/api/pt/inspections", { token: customer, method: "POST", json: body, status: 403 });
    await env.json("/api/pt/inspections", {
      token: customer,
      method: "PATCH",
      json: { ...body, id: ins.id },
      status: 403,
    });
    await env.json(`/api/pt/inspections/${ins.id}`, { token: customer, method: "DELETE", status: 403 });
    const list = await env.json(`/api/pt/inspections?job_id=${job.id}`, { token: customer });
    assert.equal(list.total, 1, "the customer still reads the row");
  }));

Deno.test("inspections - validation answers 422 with the form's messages", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    const post = (json: unknown, status = 422) =>
      env.json("/api/pt/inspections", { token, method: "POST", json, status });
    assert.deepEqual(errorsOf(await post({ job_id: job.id })), [["date", "Required"]]);
    assert.deepEqual(errorsOf(await post({ date: "2024-01-01" })), [["job_id", "Required"]]);
    assert.deepEqual(errorsOf(await post({ job_id: job.id, date: "2024-02-30" })), [
      ["date", "Must be a date (YYYY-MM-DD)"],
    ]);
    const bad = await post({
      job_id: job.id,
      date: "2024-01-01",
      ut_1: "abc",
      ut_2: "1,5",
      ut_3: true,
      pressure: "lots",
      band_color: "Pink",
      mpi_result: "Maybe",
    });
    assert.deepEqual(errorsOf(bad), [
      ["ut_1", "Must be a number"],
      ["ut_2", "Must be a number"],
      ["ut_3", "Must be a number"],
      ["pressure", "Must be a number"],
      ["band_color", "Must be one of Red, Green, Purple, Yellow, Blue"],
      ["mpi_result", "Must be one of Pass, Fail, Not Required"],
    ]);
    const other = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const foreignPart = await makePart(env.tenant.db, { inspection_company_id: other.id });
    const unknown = await post({ job_id: job.id, date: "2024-01-01", part_id: foreignPart.id });
    assert.deepEqual(errorsOf(unknown), [["part_id", "Unknown part"]]);
    assert.deepEqual(errorsOf(await post({ job_id: job.id, date: "2024-01-01", part_id: 99999 })), [
      ["part_id", "Unknown part"],
    ]);
    const otherJob = await makeJob(env.tenant.db, { inspection_company_id: other.id });
    await post({ job_id: otherJob.id, date: "2024-01-01" }, 404);
    await post({ job_id: 99999, date: "2024-01-01" }, 404);
    assert.equal((await env.json(`/api/pt/inspections?job_id=${job.id}`, { token })).total, 0);

    const blanks = await post({
      job_id: job.id,
      date: "2024-01-01",
      band_color: "",
      mpi_result: null,
      pressure: "",
      part_id: "",
    }, 200);
    assert.deepEqual([blanks.band_color, blanks.mpi_result, blanks.pressure, blanks.part], [
      null,
      null,
      null,
      null,
    ]);
  }));

Deno.test("inspections - pass/fail results left out are not recorded, never a failure; a bad answer is 422", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    const send = (json: unknown, method = "POST", status = 200) =>
      env.json("/api/pt/inspections", { token, method, json, status });
    const untouched = await send({ job_id: job.id, date: "2024-01-01", serial_number: "U-1" });
    assert.deepEqual([untouched.visual_pass, untouched.mpi_result], [null, null]);
    const blank = await send({ job_id: job.id, date: "2024-01-01", visual_pass: "", mpi_result: "" });
    assert.deepEqual([blank.visual_pass, blank.mpi_result], [null, null]);
    const failed = await send({ job_id: job.id, date: "2024-01-01", visual_pass: false, mpi_result: "Fail" });
    assert.deepEqual([failed.visual_pass, failed.mpi_result], [false, "Fail"]);
    for (const answer of ["maybe", "Yes", 0, 1, "on"]) {
      const bad = await send({ job_id: job.id, date: "2024-01-01", visual_pass: answer }, "POST", 422);
      assert.deepEqual(errorsOf(bad), [["visual_pass", VISUAL_PASS_MESSAGE]], String(answer));
      assert.equal(bad.detail, `visual_pass: ${VISUAL_PASS_MESSAGE}`);
    }
    // an edit that leaves the field out keeps the answer; null takes it back to not recorded
    const kept = await send({ id: failed.id, job_id: job.id, date: "2024-01-02" }, "PATCH");
    assert.deepEqual([kept.visual_pass, kept.mpi_result], [false, "Fail"]);
    const cleared = await send(
      { id: failed.id, job_id: job.id, date: "2024-01-02", visual_pass: null },
      "PATCH",
    );
    assert.deepEqual([cleared.visual_pass, cleared.mpi_result], [null, "Fail"]);
    const stored = (await env.json(`/api/pt/inspections?job_id=${job.id}&rowsPerPage=-1`, { token })).results;
    assert.equal(stored.length, 3);
  }));

Deno.test("inspections - the list is newest entered first, 5 rows a page by default", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    for (let i = 1; i <= 7; i++) {
      await makeInspection(env.tenant.db, { job_id: job.id, serial_number: `SN-${i}` });
    }
    const first = await env.json(`/api/pt/inspections?job_id=${job.id}`, { token });
    assert.equal(first.total, 7);
    assert.deepEqual(serials(first), ["SN-7", "SN-6", "SN-5", "SN-4", "SN-3"]);
    const second = await env.json(`/api/pt/inspections?job_id=${job.id}&page=2`, { token });
    assert.deepEqual(serials(second), ["SN-2", "SN-1"]);
    const all = await env.json(
      `/api/pt/inspections?job_id=${job.id}&rowsPerPage=-1&sortBy=serial_number&descending=false`,
      { token },
    );
    assert.deepEqual(serials(all), ["SN-1", "SN-2", "SN-3", "SN-4", "SN-5", "SN-6", "SN-7"]);
    await env.json(`/api/pt/inspections?sortBy=notes`, { token, status: 422 });
  }));

Deno.test("inspections - every search filter, wildcards taken literally", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const acme = await makeCompany(env.tenant.db, { name: "Acme Oil" });
    const basin = await makeCompany(env.tenant.db, { name: "Basin Ops", company_type: "operator_company" });
    const j1 = await makeJob(env.tenant.db, {
      job_number: "PT-1001",
      date: "2024-03-01",
      customer_company_id: acme.id,
      operator_company_id: basin.id,
    });
    const j2 = await makeJob(env.tenant.db, { job_number: "PT-2002", date: "2024-03-02" });
    const part = await makePart(env.tenant.db, { name: "Zeta Valve" });
    await makeInspection(env.tenant.db, { job_id: j1.id, serial_number: "50%-A", batch: "B_1" });
    await makeInspection(env.tenant.db, { job_id: j1.id, serial_number: "500-B", batch: "BX1" });
    await makeInspection(env.tenant.db, {
      job_id: j2.id,
      serial_number: "777-C",
      batch: "B_2",
      part_id: part.id,
    });
    const q = async (query: string) =>
      serials(await env.json(`/api/pt/inspections?rowsPerPage=-1&${query}`, { token })).sort();

    assert.deepEqual(await q("search_serial_number=50%25"), ["50%-A"]);
    assert.deepEqual(await q("search_serial_number=50"), ["50%-A", "500-B"]);
    assert.deepEqual(await q("search_batch=b_"), ["50%-A", "777-C"]);
    assert.deepEqual(await q(`job_id=${j1.id}&search_batch=b_`), ["50%-A"]);
    assert.deepEqual(await q("search_operator_name=basin"), ["50%-A", "500-B"]);
    assert.deepEqual(await q("search_customer_name=ACME"), ["50%-A", "500-B"]);
    assert.deepEqual(await q("search_job_number=2002"), ["777-C"]);
    assert.deepEqual(await q("job_date=2024-03-02"), ["777-C"]);
    assert.deepEqual(await q("job_date="), ["50%-A", "500-B", "777-C"], "blank filters are no filter");
    await env.json("/api/pt/inspections?job_date=03-02-2024", { token, status: 422 });
    const sorted = await env.json("/api/pt/inspections?sortBy=part_name&descending=true", { token });
    assert.equal(sorted.results[0].part.name, "Zeta Valve");
  }));

Deno.test("inspections - customers, operators, Data-Entry users and other inspection companies see only theirs", () =>
  withEnv(async (env) => {
    const j1 = await makeJob(env.tenant.db);
    const j2 = await makeJob(env.tenant.db);
    const other = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const j3 = await makeJob(env.tenant.db, { inspection_company_id: other.id });
    await makeInspection(env.tenant.db, { job_id: j1.id, serial_number: "J1" });
    await makeInspection(env.tenant.db, { job_id: j2.id, serial_number: "J2" });
    await makeInspection(env.tenant.db, { job_id: j3.id, serial_number: "J3" });
    const see = async (token: string) =>
      serials(await env.json("/api/pt/inspections?rowsPerPage=-1", { token })).sort();

    assert.deepEqual(await see(await env.login()), ["J1", "J2"]);
    const customer = await tokenWith(env, [], { company_id: j1.customer_company_id });
    assert.deepEqual(await see(customer), ["J1"]);
    await env.json(`/api/pt/inspections?job_id=${j2.id}`, { token: customer, status: 404 });
    const operator = await tokenWith(env, [], { company_id: j2.operator_company_id });
    assert.deepEqual(await see(operator), ["J2"]);
    const dataEntry = await tokenWith(env, ["inspector"], { account_type: "Data-Entry", jobs: [j2.id] });
    assert.deepEqual(await see(dataEntry), ["J2"]);
    await env.json(`/api/pt/inspections?job_id=${j1.id}`, { token: dataEntry, status: 404 });
    await env.json("/api/pt/inspections", {
      token: dataEntry,
      method: "POST",
      json: { job_id: j1.id, date: "2024-01-01" },
      status: 404,
    });
    const unassigned = await tokenWith(env, [], { account_type: "Data-Entry", jobs: [] });
    assert.deepEqual(await see(unassigned), []);
    const otherStaff = await tokenWith(env, ["job-admin"], { company_id: other.id });
    assert.deepEqual(await see(otherStaff), ["J3"]);
    const [j1Row] = (await env.json(`/api/pt/inspections?job_id=${j1.id}`, { token: await env.login() }))
      .results;
    await env.json(`/api/pt/inspections/${j1Row.id}`, { token: otherStaff, method: "DELETE", status: 404 });
    await env.json("/api/pt/inspections", {
      token: otherStaff,
      method: "PATCH",
      json: { id: j1Row.id, job_id: j3.id, date: "2024-01-01" },
      status: 404,
    });
  }));

Deno.test("inspections - another tenant sees none of them, and a session does not cross tenants", () =>
  withEnv(async (env) => {
    await makeInspection(env.tenant.db, { serial_number: "ACME-1" });
    const tokenA = await env.login();
    await env.addTenant("beta", "beta.test");
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const list = await env.json("/api/pt/inspections", { token: tokenB, host: "beta.test" });
    assert.deepEqual(list, { results: [], total: 0 });
    await env.json("/api/pt/inspections", { token: tokenA, host: "beta.test", status: 401 });
  }));

Deno.test("inspections - the download is an xlsx of every matching row with the table's columns", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, { name: "Acme Oil" });
    const operator = await makeCompany(env.tenant.db, {
      name: "Basin Ops",
      company_type: "operator_company",
    });
    const job = await makeJob(env.tenant.db, {
      job_number: "PT-9",
      customer_company_id: customer.id,
      operator_company_id: operator.id,
    });
    const part = await makePart(env.tenant.db, { name: "Plug", description: "2in" });
    for (let i = 0; i < 7; i++) {
      await makeInspection(env.tenant.db, { job_id: job.id, serial_number: `X-${i}` });
    }
    await makeInspection(env.tenant.db, {
      job_id: job.id,
      date: "2024-04-01",
      serial_number: "=HYPERLINK()",
      batch: "B9",
      part_id: part.id,
      visual_pass: true,
      ut_1: 1.5,
      pressure: 10000,
      band_color: "Blue",
      mpi_result: "Pass",
      notes: "n",
    });
    await makeInspection(env.tenant.db, { serial_number: "ELSEWHERE" });
    const res = await env.request(`/api/pt/inspections/download?job_id=${job.id}`, { token });
    assert.equal(res.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Inspections-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow({ includeEmpty: true }, (r) => {
      rows.push(Array.from({ length: 16 }, (_, i) => r.getCell(i + 1).value));
    });
    assert.deepEqual(rows[0], [
      "Date",
      "Serial Number",
      "Batch",
      "Part Name",
      "Part Desc.",
      "Pass Visual?",
      "UT 1",
      "UT 2",
      "UT 3",
      "Pressure",
      "Band Color",
      "MPI Result",
      "Notes",
      "Operator",
      "Customer",
      "Job Number",
    ]);
    assert.equal(rows.length, 9, "every row of the job, not one page; not other jobs'");
    assert.deepEqual(rows[1], [
      new Date("2024-04-01T00:00:00Z"),
      "'=HYPERLINK()",
      "B9",
      "Plug",
      "2in",
      "Yes",
      1.5,
      "",
      "",
      10000,
      "Blue",
      "Pass",
      "n",
      "Basin Ops",
      "Acme Oil",
      "PT-9",
    ]);
    // A date cell in the one format of every download; readings keep their number with one look each.
    const row = wb.worksheets[0].getRow(2);
    assert.deepEqual([1, 7, 10].map((c) => row.getCell(c).numFmt), ["mm-dd-yyyy", "0.000", '#,##0" psi"']);
  }));
