import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeUser } from "../../../db/factories.ts";

const OWNER_ID = 1;

/** A signed-in user of the owner company holding exactly these roles. */
async function tokenWith(env: TestEnv, permissions: string[], company_id = OWNER_ID) {
  return (await env.userWithToken({ permissions, company_id })).token;
}

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

Deno.test("companies - a superuser creates, reads, updates and deletes a company", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const created = await env.json("/api/companies", {
      token,
      method: "POST",
      json: {
        name: "Red River Energy",
        company_type: "customer_company",
        custom: { address_line_1: "1 Main St" },
        settings: '{"apps":["sales"]}',
      },
    });
    assert.equal(created.message, "Company created");
    assert.equal(created.isOwner, false);
    assert.deepEqual(created.settings, { apps: ["sales"] });
    assert.deepEqual(created.users, []);

    const list = await env.json("/api/admin/companies?search_name=red river", { token });
    assert.equal(list.total, 1);
    assert.equal(list.results[0].custom.address_line_1, "1 Main St");

    const updated = await env.json("/api/companies", {
      token,
      method: "PATCH",
      json: { id: created.id, name: "Red River Energy LLC", company_type: "operator_company" },
    });
    assert.equal(updated.message, "Company updated");
    assert.equal(updated.name, "Red River Energy LLC");
    assert.equal(updated.company_type, "operator_company");
    assert.deepEqual(updated.settings, { apps: ["sales"] }, "absent settings are left as stored");
    assert.equal(updated.custom.address_line_1, "1 Main St");

    const viaPost = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { id: created.id, name: "Red River", company_type: "operator_company" },
    });
    assert.equal(viaPost.message, "Company updated");
    assert.equal(viaPost.id, created.id);

    const deleted = await env.json(`/api/companies/${created.id}`, { token, method: "DELETE" });
    assert.deepEqual(deleted, { message: "Company deleted" });
    assert.equal((await env.json("/api/admin/companies?search_name=red river", { token })).total, 0);
    await env.json(`/api/companies/${created.id}`, { token, method: "DELETE", status: 404 });
  }));

Deno.test("companies - the list embeds each company's users", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const c = await makeCompany(env.tenant.db, { name: "With Users Inc" });
    const u = await makeUser(env.tenant.db, { company_id: c.id, name: "Zed" });
    const list = await env.json("/api/admin/companies?search_name=With Users", { token });
    assert.deepEqual(list.results[0].users, [{ id: u.id, name: "Zed", email: u.email }]);
  }));

Deno.test("companies - missing fields and bad settings are 422 with the form's messages", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const empty = await env.json("/api/companies", { token, method: "POST", json: {}, status: 422 });
    assert.deepEqual(
      empty.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
      [["name", "Required"], ["company_type", "Required"]],
    );
    const blank = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "   ", company_type: "customer_company" },
      status: 422,
    });
    assert.equal(blank.errors[0].path, "name");
    const bad = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "X", company_type: "customer_company", settings: "{not json" },
      status: 422,
    });
    assert.equal(bad.errors[0].path, "settings");
    assert.equal(bad.errors[0].message, "Settings must be valid JSON (an object)");
    const arr = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "X", company_type: "customer_company", settings: "[1]" },
      status: 422,
    });
    assert.equal(arr.errors[0].path, "settings");
    const noId = await env.json("/api/companies", {
      token,
      method: "PATCH",
      json: { name: "X", company_type: "customer_company" },
      status: 422,
    });
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
  }));

Deno.test("companies - a duplicate name within a type is 409; the same name of another type is fine", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCompany(env.tenant.db, { name: "Caprock Drilling", company_type: "customer_company" });
    const dup = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "CAPROCK drilling", company_type: "customer_company" },
      status: 409,
    });
    assert.equal(dup.detail, "A company with this name already exists.");
    await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "Caprock Drilling", company_type: "operator_company" },
    });
    const other = await makeCompany(env.tenant.db, { name: "Other", company_type: "customer_company" });
    await env.json("/api/companies", {
      token,
      method: "PATCH",
      json: { id: other.id, name: "caprock drilling", company_type: "customer_company" },
      status: 409,
    });
  }));

Deno.test("companies - a General user can neither create, update nor delete a company", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["inspector"]);
    const c = await makeCompany(env.tenant.db);
    const body = { name: "Nope Co", company_type: "customer_company" };
    await env.json("/api/companies", { token, method: "POST", json: body, status: 403 });
    await env.json("/api/companies", { token, method: "PATCH", json: { ...body, id: c.id }, status: 403 });
    await env.json(`/api/companies/${c.id}`, { token, method: "DELETE", status: 403 });
  }));

Deno.test("companies - a user-admin edits customer fields but cannot delete or change settings", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["user-admin"]);
    const c = await makeCompany(env.tenant.db, { settings: { apps: ["sales"], logoSVGHeight: 60 } });
    const ok = await env.json("/api/companies", {
      token,
      method: "PATCH",
      // the same settings, keys in another order: not a change
      json: {
        id: c.id,
        name: "Renamed",
        company_type: c.company_type,
        settings: { logoSVGHeight: 60, apps: ["sales"] },
      },
    });
    assert.equal(ok.name, "Renamed");
    const denied = await env.json("/api/companies", {
      token,
      method: "PATCH",
      json: { id: c.id, name: "Renamed", company_type: c.company_type, settings: { apps: [] } },
      status: 403,
    });
    assert.equal(denied.detail, "Only a superuser can edit company settings.");
    await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "New With Settings", company_type: "customer_company", settings: { apps: ["sales"] } },
      status: 403,
    });
    const created = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "New Plain", company_type: "customer_company" },
    });
    assert.deepEqual(created.settings, {});
    await env.json(`/api/companies/${c.id}`, { token, method: "DELETE", status: 403 });
  }));

Deno.test("companies - isOwner cannot be set, the owner's type cannot change and it cannot be deleted", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const made = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "Sneaky", company_type: "inspection_company", isOwner: true },
    });
    assert.equal(made.isOwner, false);
    const typeChange = await env.json("/api/companies", {
      token,
      method: "PATCH",
      json: { id: OWNER_ID, name: "Acme Inspections", company_type: "customer_company" },
      status: 409,
    });
    assert.ok(typeChange.detail);
    await env.json(`/api/companies/${OWNER_ID}`, { token, method: "DELETE", status: 409 });
  }));

Deno.test("companies - a company that still has users cannot be deleted", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const c = await makeCompany(env.tenant.db);
    await makeUser(env.tenant.db, { company_id: c.id });
    const res = await env.json(`/api/companies/${c.id}`, { token, method: "DELETE", status: 409 });
    assert.equal(res.detail, "This company still has users; move or delete them first.");
    await env.json("/api/companies/999999", { token, method: "DELETE", status: 404 });
  }));

Deno.test("companies - the admin list is for the owner company's users only", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db);
    const token = await tokenWith(env, ["user-admin", "superuser"], customer.id);
    await env.json("/api/admin/companies", { token, status: 403 });
    await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "From Customer", company_type: "customer_company" },
      status: 403,
    });
    await env.json(`/api/companies/${customer.id}`, { token, method: "DELETE", status: 403 });
  }));

Deno.test("companies - search treats % and _ literally and is case-insensitive", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCompany(env.tenant.db, { name: "Save 50% Supply" });
    await makeCompany(env.tenant.db, { name: "Plain 500 Supply" });
    await makeCompany(env.tenant.db, { name: "Under_Score Ltd" });
    assert.deepEqual(names(await env.json("/api/admin/companies?search_name=50%25", { token })), [
      "Save 50% Supply",
    ]);
    assert.deepEqual(names(await env.json("/api/admin/companies?search_name=r_s", { token })), [
      "Under_Score Ltd",
    ]);
    assert.equal((await env.json("/api/admin/companies?search_name=_", { token })).total, 1);
    assert.equal((await env.json("/api/admin/companies?search_name=%25", { token })).total, 1);
    assert.equal((await env.json("/api/admin/companies?search_name=SUPPLY", { token })).total, 2);
  }));

Deno.test("companies - the list pages, counts and sorts (ascending by name by default)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (
      const [name, type] of [["b-co", "operator_company"], ["A-co", "customer_company"], [
        "c-co",
        "customer_company",
      ]] as const
    ) {
      await makeCompany(env.tenant.db, { name, company_type: type });
    }
    const page1 = await env.json("/api/admin/companies?search_name=-co&rowsPerPage=2&page=1", { token });
    assert.equal(page1.total, 3);
    assert.deepEqual(names(page1), ["A-co", "b-co"]);
    const page2 = await env.json("/api/admin/companies?search_name=-co&rowsPerPage=2&page=2", { token });
    assert.deepEqual(names(page2), ["c-co"]);
    const all = await env.json("/api/admin/companies?rowsPerPage=-1", { token });
    assert.equal(all.results.length, 4);
    const desc = await env.json("/api/admin/companies?search_name=-co&descending=true", { token });
    assert.deepEqual(names(desc), ["c-co", "b-co", "A-co"]);
    const byType = await env.json("/api/admin/companies?search_name=-co&sortBy=company_type", { token });
    assert.deepEqual(names(byType), ["A-co", "c-co", "b-co"]);
    const onlyOps = await env.json("/api/admin/companies?type=operator_company", { token });
    assert.deepEqual(names(onlyOps), ["b-co"]);
    await env.json("/api/admin/companies?sortBy=password", { token, status: 422 });
    await env.json("/api/admin/companies?rowsPerPage=0", { token, status: 422 });
  }));

Deno.test("companies - the look-up filters by type, name, q and isOwner, 20 at a time", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    for (let i = 0; i < 22; i++) {
      await makeCompany(env.tenant.db, { name: `Cust ${String(i).padStart(2, "0")}` });
    }
    await makeCompany(env.tenant.db, { name: "Midland Operating", company_type: "operator_company" });
    const custs = await env.json("/api/companies?type=customer_company&search_name=cust", { token });
    assert.equal(custs.total, 22);
    assert.equal(custs.results.length, 20);
    assert.deepEqual(Object.keys(custs.results[0]).sort(), ["company_type", "id", "isOwner", "name"]);
    const ops = await env.json("/api/companies?type=operator_company&q=midland", { token });
    assert.deepEqual(names(ops), ["Midland Operating"]);
    const notOwner = await env.json("/api/companies?isOwner=false&rowsPerPage=-1", { token });
    assert.equal(notOwner.total, 23);
    const owner = await env.json("/api/companies?isOwner=true", { token });
    assert.deepEqual(owner.results.map((r: { id: number }) => r.id), [OWNER_ID]);
    await env.json("/api/companies?type=nonsense", { token, status: 422 });
  }));

Deno.test("companies - a customer company's user only ever finds their own company", () =>
  withEnv(async (env) => {
    const mine = await makeCompany(env.tenant.db, { name: "Mine Co" });
    await makeCompany(env.tenant.db, { name: "Theirs Co" });
    const token = await tokenWith(env, ["user-admin"], mine.id);
    const all = await env.json("/api/companies?rowsPerPage=-1", { token });
    assert.deepEqual(names(all), ["Mine Co"]);
    const forUser = await env.json("/api/companies?forUser=true&q=co", { token });
    assert.deepEqual(names(forUser), ["Mine Co"]);
    assert.equal((await env.json("/api/companies?search_name=theirs", { token })).total, 0);
  }));

Deno.test("companies - a session is bound to its tenant and ids of another tenant are 404", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const created = await env.json("/api/companies", {
      token: tokenA,
      method: "POST",
      json: { name: "Only In Acme", company_type: "customer_company" },
    });
    await env.addTenant("beta", "beta.test");
    await env.json("/api/admin/companies", { token: tokenA, host: "beta.test", status: 401 });
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const betaList = await env.json("/api/admin/companies?rowsPerPage=-1", {
      token: tokenB,
      host: "beta.test",
    });
    assert.deepEqual(names(betaList), ["Beta Inspections"]);
    await env.json(`/api/companies/${created.id}`, {
      token: tokenB,
      host: "beta.test",
      method: "DELETE",
      status: 404,
    });
    await env.json("/api/companies", {
      token: tokenB,
      host: "beta.test",
      method: "PATCH",
      json: { id: created.id, name: "Hijack", company_type: "customer_company" },
      status: 404,
    });
  }));

Deno.test("companies - a logo the PDFs could not draw safely (a PNG declaring 100000 x 100000) is refused on save", () =>
  withEnv(async (env) => {
    const token = await env.login();
    // A PNG header alone: signature, then an IHDR chunk declaring 100000 x 100000 pixels.
    const ihdr = new Uint8Array(25);
    const v = new DataView(ihdr.buffer);
    v.setUint32(0, 13);
    ihdr.set([73, 72, 68, 82], 4);
    v.setUint32(8, 100000);
    v.setUint32(12, 100000);
    ihdr.set([8, 6, 0, 0, 0], 16);
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...ihdr]);
    const logo = `data:image/png;base64,${btoa(String.fromCharCode(...png))}`;
    const [owner] = (await env.json("/api/companies?isOwner=true", { token })).results;
    const res = await env.json("/api/companies", {
      method: "PATCH",
      token,
      json: {
        id: owner.id,
        name: owner.name,
        company_type: owner.company_type,
        settings: { companyLogo: logo },
      },
      status: 422,
    });
    assert.equal(res.errors[0].path, "settings.companyLogo");
  }));

Deno.test("companies - the download is an xlsx of every matching company, with a real date cell", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeCompany(env.tenant.db, {
      name: "Export Drilling",
      company_type: "operator_company",
      custom: { address_line_1: "12 Derrick Road" },
    });
    for (let i = 0; i < 30; i++) await makeCompany(env.tenant.db, { name: `Export ${i}` });
    await makeCompany(env.tenant.db, { name: "Other Co" });
    const res = await env.request("/api/admin/companies/download?search_name=export&rowsPerPage=10", {
      token,
    });
    assert.equal(res.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Companies-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], [
      "Company",
      "Type",
      "Tax ID",
      "Address line 1",
      "Address line 2",
      "Address line 3",
      "Users",
      "Created",
    ]);
    assert.equal(rows.length, 32, "every matching company, not one page");
    const drilling = rows.find((r) => r[0] === "Export Drilling")!;
    assert.deepEqual(drilling.slice(0, 4), ["Export Drilling", "Operator", "", "12 Derrick Road"]);
    assert.ok(drilling[7] instanceof Date, "Created is a date cell");
    // Outside the owner company the list is refused, and so is its download.
    const outsider = await env.userWithToken({
      company_id: (await makeCompany(env.tenant.db, { name: "Outsider" })).id,
    });
    await env.json("/api/admin/companies/download", { token: outsider.token, status: 403 });
  }));
