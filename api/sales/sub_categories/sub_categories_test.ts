import assert from "node:assert/strict";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

function save(env: TestEnv, token: string, json: Record<string, unknown>, status = 200, method = "POST") {
  return env.json("/api/sales/sub_categories", { token, method, json, status });
}

const productLine = (env: TestEnv, name: string) =>
  makeCategory(env.tenant.db, { model: "Product Line", name });

Deno.test("sub categories - a sales admin creates, lists, moves and deletes a sub product line", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const flowback = await productLine(env, "Flowback");
    const testing = await productLine(env, "Well Testing");
    const created = await save(env, token, { category_id: String(flowback.id), name: " Iron ", notes: "n" });
    assert.deepEqual({ ...created, id: 0 }, {
      id: 0,
      version: 1,
      company_id: 1,
      created_by_id: user.id,
      category_id: flowback.id,
      model: "Sub Product Line",
      name: "Iron",
      notes: "n",
      category: { id: flowback.id, name: "Flowback" },
      message: "Sub Product Line created",
    });
    const list = await env.json("/api/sales/sub_categories", { token });
    assert.deepEqual(list.results, [{ ...created, message: undefined }].map(({ message: _, ...r }) => r));

    const moved = await save(
      env,
      token,
      { id: created.id, category_id: testing.id, name: "Iron" },
      200,
      "PUT",
    );
    assert.deepEqual([moved.category, moved.notes, moved.message], [
      { id: testing.id, name: "Well Testing" },
      "n",
      "Sub Product Line updated",
    ]);
    const deleted = await env.json(`/api/sales/sub_categories/${created.id}`, { token, method: "DELETE" });
    assert.deepEqual(deleted, { message: "Sub Product Line deleted" });
    await env.json(`/api/sales/sub_categories/${created.id}`, { token, method: "DELETE", status: 404 });
  }));

Deno.test("sub categories - category and name are required; the category must be a product line", () =>
  withEnv(async (env) => {
    const token = await env.login();
    let res = await save(env, token, {}, 422);
    assert.deepEqual(res.errors, [
      { path: "category_id", message: "Category is required" },
      { path: "name", message: "Required" },
    ]);
    res = await save(env, token, { category_id: "", name: " " }, 422);
    assert.deepEqual(res.errors.map((e: { message: string }) => e.message), [
      "Category is required",
      "Required",
    ]);
    const unit = await makeCategory(env.tenant.db, { model: "Business Unit" });
    res = await save(env, token, { category_id: unit.id, name: "X" }, 422);
    assert.deepEqual(res.errors, [{ path: "category_id", message: "Category must be a Product Line" }]);
    await save(env, token, { category_id: 9999, name: "X" }, 422);

    const line = await productLine(env, "Flowback");
    const other = await productLine(env, "Testing");
    await save(env, token, { category_id: line.id, name: "Iron" });
    res = await save(env, token, { category_id: line.id, name: "IRON" }, 409);
    assert.equal(res.detail, "A Sub Product Line with this name already exists in Flowback.");
    await save(env, token, { category_id: other.id, name: "Iron" }); // another product line: fine
    res = await save(env, token, { category_id: line.id, name: "X" }, 422, "PUT");
    assert.deepEqual(res.errors, [{ path: "id", message: "Required" }]);
  }));

Deno.test("sub categories - search by name (literal %), by product line and model; pages and sorts", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await productLine(env, "A Line");
    const b = await productLine(env, "B Line");
    await save(env, token, { category_id: b.id, name: "Iron 50%", notes: "z" });
    await save(env, token, { category_id: a.id, name: "Iron 500", notes: "y" });
    await save(env, token, { category_id: a.id, name: "Chokes", notes: "x" });
    const get = (qs: string) => env.json(`/api/sales/sub_categories?${qs}`, { token });
    assert.deepEqual(names(await get("search_name=50%25")), ["Iron 50%"]);
    assert.deepEqual(names(await get(`search_parent=${a.id}`)), ["Chokes", "Iron 500"]);
    assert.deepEqual(names(await get(`search_parent=${a.id}&search_name=iron`)), ["Iron 500"]);
    assert.deepEqual(names(await get("model=Sub%20Product%20Line&search_parent=")), [
      "Chokes",
      "Iron 50%",
      "Iron 500",
    ]);
    assert.equal((await get("model=Other")).total, 0);
    assert.deepEqual(names(await get("sortBy=category&descending=true")), ["Iron 50%", "Chokes", "Iron 500"]);
    assert.deepEqual(names(await get("sortBy=notes")), ["Chokes", "Iron 500", "Iron 50%"]);
    const page = await get("rowsPerPage=2&page=2");
    assert.deepEqual([names(page), page.total], [["Iron 500"], 3]);
    await env.json("/api/sales/sub_categories?search_parent=abc", { token, status: 422 });
  }));

Deno.test("sub categories - only sales-admin writes; customer users cannot even read; tenants are apart", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const line = await productLine(env, "Flowback");
    const sub = await save(env, admin, { category_id: line.id, name: "Iron" });
    const { token } = await env.userWithToken({ permissions: ["approval-authority"] });
    assert.deepEqual(names(await env.json("/api/sales/sub_categories", { token })), ["Iron"]);
    await save(env, token, { category_id: line.id, name: "X" }, 403);
    await save(env, token, { id: sub.id, category_id: line.id, name: "X" }, 403, "PUT");
    await env.json(`/api/sales/sub_categories/${sub.id}`, { token, method: "DELETE", status: 403 });
    const customer = await makeCompany(env.tenant.db);
    const outsider = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    await env.json("/api/sales/sub_categories", { token: outsider.token, status: 403 });

    await env.addTenant("beta", "beta.test");
    const beta = { token: await env.login(ADMIN.email, ADMIN.password, "beta.test"), host: "beta.test" };
    assert.equal((await env.json("/api/sales/sub_categories", beta)).total, 0);
    await env.json(`/api/sales/sub_categories/${sub.id}`, { ...beta, method: "DELETE", status: 404 });
    const res = await env.json("/api/sales/sub_categories", {
      ...beta,
      method: "POST",
      json: { category_id: line.id, name: "Hijack" },
      status: 422,
    });
    assert.equal(res.detail, "Category must be a Product Line");
  }));
