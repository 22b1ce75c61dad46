import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makePart } from "../../../db/factories.ts";
import { eq } from "drizzle-orm";
import { inspections } from "../../../db/schema/mod.ts";

const OWNER_ID = 1;

/** A signed-in user of the owner company (or `company_id`) holding exactly these roles. */
async function tokenWith(env: TestEnv, permissions: string[], company_id = OWNER_ID) {
  return (await env.userWithToken({ permissions, company_id })).token;
}

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

Deno.test("parts - a part-admin creates, reads, updates and deletes a part", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["part-admin"] });
    const created = await env.json("/api/pt/parts", {
      token,
      method: "POST",
      json: { name: "  2in Plug Valve ", description: "1502 union", manufacturer: "SPM", custom: { a: 1 } },
    });
    assert.equal(created.message, "Part created");
    assert.deepEqual(
      { ...created, id: 0 },
      {
        id: 0,
        name: "2in Plug Valve",
        description: "1502 union",
        manufacturer: "SPM",
        inspection_company_id: OWNER_ID,
        user_id: user.id,
        custom: { a: 1 },
        version: 1,
        message: "Part created",
      },
    );

    const list = await env.json("/api/pt/parts?search_name=plug", { token });
    assert.equal(list.total, 1);
    assert.deepEqual(Object.keys(list.results[0]).sort(), [
      "custom",
      "description",
      "id",
      "inspection_company_id",
      "manufacturer",
      "name",
      "user_id",
      "version",
    ]);

    const updated = await env.json("/api/pt/parts", {
      token,
      method: "PATCH",
      json: { id: created.id, name: "2in Plug Valve XL", manufacturer: null },
    });
    assert.equal(updated.message, "Part updated");
    assert.equal(updated.name, "2in Plug Valve XL");
    assert.equal(updated.manufacturer, "", "null clears a field");
    assert.equal(updated.description, "1502 union", "absent fields are left as stored");
    assert.deepEqual(updated.custom, { a: 1 });

    const viaPost = await env.json("/api/pt/parts", {
      token,
      method: "POST",
      json: { id: created.id, description: "Changed" },
    });
    assert.equal(viaPost.message, "Part updated");
    assert.equal(viaPost.id, created.id);
    assert.equal(viaPost.description, "Changed");

    const deleted = await env.json(`/api/pt/parts/${created.id}`, { token, method: "DELETE" });
    assert.deepEqual(deleted, { message: "Part deleted" });
    assert.equal((await env.json("/api/pt/parts?search_name=plug", { token })).total, 0);
    await env.json(`/api/pt/parts/${created.id}`, { token, method: "DELETE", status: 404 });
  }));

Deno.test("parts - no field is required, but text is capped and PATCH needs an id", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const empty = await env.json("/api/pt/parts", { token, method: "POST", json: {} });
    assert.deepEqual([empty.name, empty.description, empty.manufacturer], ["", "", ""]);
    const long = await env.json("/api/pt/parts", {
      token,
      method: "POST",
      json: { name: "x".repeat(201), description: "y".repeat(1001) },
      status: 422,
    });
    assert.deepEqual(long.errors, [
      { path: "name", message: "At most 200 characters" },
      { path: "description", message: "At most 1000 characters" },
    ]);
    await env.json("/api/pt/parts", {
      token,
      method: "POST",
      json: { description: "y".repeat(1000), manufacturer: " ".repeat(300) + "SPM" + " ".repeat(300) },
    });
    const noId = await env.json("/api/pt/parts", {
      token,
      method: "PATCH",
      json: { name: "X" },
      status: 422,
    });
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
  }));

Deno.test("parts - a General user adds a part but can neither edit nor delete one", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["inspector", "job-admin"]);
    const created = await env.json("/api/pt/parts", { token, method: "POST", json: { name: "Mine" } });
    assert.equal(created.message, "Part created");
    const part = await makePart(env.tenant.db, { name: "Theirs" });
    for (const p of [created, part]) {
      const denied = await env.json("/api/pt/parts", {
        token,
        method: "PATCH",
        json: { id: p.id, name: "Renamed" },
        status: 403,
      });
      assert.equal(denied.detail, "You do not have permission to do that.");
      await env.json("/api/pt/parts", { token, method: "POST", json: { id: p.id, name: "R" }, status: 403 });
      await env.json(`/api/pt/parts/${p.id}`, { token, method: "DELETE", status: 403 });
    }
    assert.deepEqual(names(await env.json("/api/pt/parts", { token })), ["Mine", "Theirs"]);
  }));

Deno.test("parts - customer and operator users get 403 for the list, the look-up and every write", () =>
  withEnv(async (env) => {
    const part = await makePart(env.tenant.db);
    for (const company_type of ["customer_company", "operator_company"] as const) {
      const co = await makeCompany(env.tenant.db, { company_type });
      const token = await tokenWith(env, ["part-admin", "superuser"], co.id);
      const res = await env.json("/api/pt/parts", { token, status: 403 });
      assert.equal(res.detail, "The parts catalogue belongs to the inspection company.");
      await env.json("/api/parts?search_name=part", { token, status: 403 });
      await env.json("/api/pt/parts/download", { token, status: 403 });
      await env.json("/api/pt/parts", { token, method: "POST", json: { name: "X" }, status: 403 });
      await env.json("/api/pt/parts", { token, method: "PATCH", json: { id: part.id }, status: 403 });
      await env.json(`/api/pt/parts/${part.id}`, { token, method: "DELETE", status: 403 });
    }
    await env.json("/api/pt/parts", { status: 401 });
  }));

Deno.test("parts - another inspection company's parts are invisible and their ids 404", () =>
  withEnv(async (env) => {
    const other = await makeCompany(env.tenant.db, {
      name: "Rival Inspections",
      company_type: "inspection_company",
    });
    const theirs = await makePart(env.tenant.db, { name: "Rival Valve", inspection_company_id: other.id });
    await makePart(env.tenant.db, { name: "Acme Valve" });
    const token = await env.login();
    assert.deepEqual(names(await env.json("/api/pt/parts?search_name=valve", { token })), ["Acme Valve"]);
    assert.deepEqual(names(await env.json("/api/parts?search_name=valve", { token })), ["Acme Valve"]);
    await env.json("/api/pt/parts", {
      token,
      method: "PATCH",
      json: { id: theirs.id, name: "X" },
      status: 404,
    });
    await env.json(`/api/pt/parts/${theirs.id}`, { token, method: "DELETE", status: 404 });

    const rivalToken = await tokenWith(env, ["part-admin"], other.id);
    assert.deepEqual(names(await env.json("/api/pt/parts?rowsPerPage=-1", { token: rivalToken })), [
      "Rival Valve",
    ]);
    const made = await env.json("/api/pt/parts", {
      token: rivalToken,
      method: "POST",
      json: { name: "New" },
    });
    assert.equal(made.inspection_company_id, other.id);
  }));

Deno.test("parts - a part used by an inspection cannot be deleted (409) and stays on it", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const part = await makePart(env.tenant.db, { name: "In Use" });
    const insp = await makeInspection(env.tenant.db, { part_id: part.id });
    const res = await env.json(`/api/pt/parts/${part.id}`, { token, method: "DELETE", status: 409 });
    assert.equal(res.detail, "This part is used by inspections.");
    assert.equal((await env.json("/api/pt/parts?search_name=in use", { token })).total, 1);
    const row = await env.tenant.db.select().from(inspections).where(eq(inspections.id, insp.id)).get();
    assert.equal(row?.part_id, part.id);
  }));

Deno.test("parts - search treats % and _ literally and is case-insensitive", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makePart(env.tenant.db, { name: "Valve 50% bore" });
    await makePart(env.tenant.db, { name: "Valve 500 bore" });
    await makePart(env.tenant.db, { name: "Tee_Joint" });
    assert.deepEqual(names(await env.json("/api/pt/parts?search_name=50%25", { token })), ["Valve 50% bore"]);
    assert.deepEqual(names(await env.json("/api/pt/parts?search_name=e_j", { token })), ["Tee_Joint"]);
    assert.equal((await env.json("/api/pt/parts?search_name=_", { token })).total, 1);
    assert.equal((await env.json("/api/pt/parts?search_name=VALVE", { token })).total, 2);
    assert.deepEqual(names(await env.json("/api/parts?search_name=50%25", { token })), ["Valve 50% bore"]);
  }));

Deno.test("parts - the list pages, counts and sorts (ascending by name by default)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makePart(env.tenant.db, { name: "b-part", description: "zz", manufacturer: "Alpha" });
    await makePart(env.tenant.db, { name: "A-part", description: "mm", manufacturer: "charlie" });
    await makePart(env.tenant.db, { name: "c-part", description: "AA", manufacturer: "Bravo" });
    const page1 = await env.json("/api/pt/parts?rowsPerPage=2&page=1", { token });
    assert.equal(page1.total, 3);
    assert.deepEqual(names(page1), ["A-part", "b-part"]);
    assert.deepEqual(names(await env.json("/api/pt/parts?rowsPerPage=2&page=2", { token })), ["c-part"]);
    assert.equal((await env.json("/api/pt/parts?rowsPerPage=-1", { token })).results.length, 3);
    assert.deepEqual(names(await env.json("/api/pt/parts?descending=true", { token })), [
      "c-part",
      "b-part",
      "A-part",
    ]);
    assert.deepEqual(names(await env.json("/api/pt/parts?sortBy=description", { token })), [
      "c-part",
      "A-part",
      "b-part",
    ]);
    assert.deepEqual(names(await env.json("/api/pt/parts?sortBy=manufacturer&descending=true", { token })), [
      "A-part",
      "c-part",
      "b-part",
    ]);
    await env.json("/api/pt/parts?sortBy=user_id", { token, status: 422 });
    await env.json("/api/pt/parts?rowsPerPage=0", { token, status: 422 });
  }));

Deno.test("parts - the look-up answers id, name and description, 20 at a time", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    for (let i = 0; i < 22; i++) {
      await makePart(env.tenant.db, { name: `Swivel ${String(i).padStart(2, "0")}` });
    }
    const hits = await env.json("/api/parts?search_name=swivel", { token });
    assert.equal(hits.total, 22);
    assert.equal(hits.results.length, 20);
    assert.deepEqual(Object.keys(hits.results[0]).sort(), ["description", "id", "name"]);
    assert.equal(hits.results[0].name, "Swivel 00");
  }));

Deno.test("parts - the download is an xlsx of every matching part with neutralised formulas", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makePart(env.tenant.db, { name: "Export =SUM(A1)", description: "=cmd()", manufacturer: "SPM" });
    for (let i = 0; i < 30; i++) await makePart(env.tenant.db, { name: `Export ${i}` });
    await makePart(env.tenant.db, { name: "Not This One" });
    const res = await env.request("/api/pt/parts/download?search_name=export&rowsPerPage=10", { token });
    assert.equal(res.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Parts-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], ["Part Name", "Part Desc.", "Manufacturer"]);
    assert.equal(rows.length, 32, "every matching row, not one page");
    assert.deepEqual(rows.find((r) => r[0] === "Export =SUM(A1)"), ["Export =SUM(A1)", "'=cmd()", "SPM"]);
  }));

Deno.test("parts - a session is bound to its tenant and ids of another tenant are 404", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const created = await env.json("/api/pt/parts", {
      token: tokenA,
      method: "POST",
      json: { name: "Only In Acme" },
    });
    await env.addTenant("beta", "beta.test");
    await env.json("/api/pt/parts", { token: tokenA, host: "beta.test", status: 401 });
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const beta = { token: tokenB, host: "beta.test" };
    assert.equal((await env.json("/api/pt/parts?rowsPerPage=-1", beta)).total, 0);
    await env.json(`/api/pt/parts/${created.id}`, { ...beta, method: "DELETE", status: 404 });
    await env.json("/api/pt/parts", {
      ...beta,
      method: "PATCH",
      json: { id: created.id, name: "Hijack" },
      status: 404,
    });
    assert.deepEqual(names(await env.json("/api/pt/parts", { token: tokenA })), ["Only In Acme"]);
  }));
