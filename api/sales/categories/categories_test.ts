import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory_audit, inventory_locations, sub_categories, templates } from "../../../db/schema/mod.ts";

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);
const UNIT = "Business Unit";

function save(env: TestEnv, token: string, json: Record<string, unknown>, status = 200, method = "POST") {
  return env.json("/api/sales/categories", { token, method, json, status });
}

Deno.test("categories - a sales admin creates, lists, updates and deletes a category of each model", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["sales-admin"] });
    for (const model of ["Inventory Category", "Item Category", UNIT, "Product Line"]) {
      const created = await save(env, token, { model, name: "  Rentals ", notes: "n" });
      assert.equal(created.message, `${model} created`);
      assert.deepEqual({ ...created, id: 0 }, {
        id: 0,
        version: 1,
        company_id: 1,
        created_by_id: user.id,
        model,
        name: "Rentals",
        notes: "n",
        custom: model === UNIT ? { locations: [] } : {},
        message: `${model} created`,
      });
      const listed = await env.json(`/api/sales/categories?model=${encodeURIComponent(model)}`, { token });
      assert.deepEqual([names(listed), listed.total], [["Rentals"], 1], "one model's rows only");
      const updated = await save(
        env,
        token,
        { id: created.id, model, name: "Sales", notes: null },
        200,
        "PUT",
      );
      assert.deepEqual([updated.name, updated.notes, updated.message], ["Sales", "", `${model} updated`]);
      const deleted = await env.json(`/api/sales/categories/${created.id}`, { token, method: "DELETE" });
      assert.deepEqual(deleted, { message: `${model} deleted` });
    }
    await env.json("/api/sales/categories/999", { token, method: "DELETE", status: 404 });
  }));

Deno.test("categories - model is required and checked; name is required and unique within a model", () =>
  withEnv(async (env) => {
    const token = await env.login();
    let res = await env.json("/api/sales/categories", { token, status: 422 });
    assert.deepEqual(res.errors, [{ path: "model", message: "Required" }]);
    res = await env.json("/api/sales/categories?model=Warehouse", { token, status: 422 });
    assert.match(res.errors[0].message, /^Must be one of: Inventory Category, Item Category/);
    res = await save(env, token, { model: "Warehouse", name: "X" }, 422);
    assert.equal(res.errors[0].path, "model");
    res = await save(env, token, { model: UNIT, name: "   ", notes: "x" }, 422);
    assert.deepEqual(res.errors, [{ path: "name", message: "Required" }]);
    res = await save(env, token, { model: UNIT }, 422);
    assert.deepEqual(res.errors, [{ path: "name", message: "Required" }]);

    const yard = await save(env, token, { model: UNIT, name: "Odessa Yard" });
    res = await save(env, token, { model: UNIT, name: "odessa yard" }, 409);
    assert.equal(res.detail, "A Business Unit with this name already exists.");
    res = await save(env, token, { model: "Item Category", name: "Iron" });
    res = await save(env, token, { model: "Item Category", name: "IRON" }, 409);
    assert.equal(res.detail, "An Item Category with this name already exists.");
    await save(env, token, { model: "Product Line", name: "Odessa Yard" }); // another model: fine
    await save(env, token, { id: yard.id, model: UNIT, name: "ODESSA YARD" }, 200, "PUT"); // itself: fine
    res = await save(env, token, { id: yard.id, model: "Product Line", name: "Odessa" }, 422, "PUT");
    assert.equal(res.detail, "A category cannot change its model.");
    res = await save(env, token, { model: UNIT, name: "X" }, 422, "PUT");
    assert.deepEqual(res.errors, [{ path: "id", message: "Required" }]);
  }));

Deno.test("categories - search by name treats % literally; '!ALL' lists every unit; pages and sorts", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (let i = 0; i < 25; i++) {
      await makeCategory(env.tenant.db, { name: `Unit ${String(i).padStart(2, "0")}` });
    }
    await makeCategory(env.tenant.db, { name: "50% Yard", notes: "a" });
    await makeCategory(env.tenant.db, { name: "500 Yard", notes: "b" });
    await makeCategory(env.tenant.db, { model: "Product Line", name: "Unit Line" });
    const get = (qs: string) => env.json(`/api/sales/categories?model=Business%20Unit&${qs}`, { token });
    assert.deepEqual(names(await get("search_name=50%25")), ["50% Yard"]);
    const page = await get("search_name=unit");
    assert.deepEqual([page.results.length, page.total], [20, 25], "20 a page by default");
    const all = await get("search_name=!ALL&rowsPerPage=5&page=2");
    assert.deepEqual([all.results.length, all.total], [27, 27], "'!ALL': no filter, every row");
    assert.deepEqual(names(all).slice(0, 2), ["50% Yard", "500 Yard"]);
    assert.deepEqual(names(await get("rowsPerPage=2&descending=true")), ["Unit 24", "Unit 23"]);
    assert.deepEqual(names(await get("search_name=yard&sortBy=notes&descending=true")), [
      "500 Yard",
      "50% Yard",
    ]);
    assert.equal((await get("rowsPerPage=-1")).results.length, 27);
    await env.json("/api/sales/categories?model=Business%20Unit&sortBy=model", { token, status: 422 });
  }));

Deno.test("categories - business units keep trimmed, distinct locations; 'Base' is reserved", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await save(env, token, {
      model: UNIT,
      name: "Midland",
      custom: { locations: [" North Yard ", "Rack 2"], color: "red" },
    });
    assert.deepEqual(unit.custom, { locations: ["North Yard", "Rack 2"], color: "red" });
    let res = await save(env, token, { model: UNIT, name: "X", custom: { locations: ["A", "base"] } }, 422);
    assert.equal(res.detail, "'Base' is the default location");
    assert.deepEqual(res.errors, [{ path: "custom.locations.1", message: "'Base' is the default location" }]);
    res = await save(env, token, { model: UNIT, name: "X", custom: { locations: ["A", " ", "a"] } }, 422);
    assert.deepEqual(res.errors, [
      { path: "custom.locations.1", message: "Required" },
      { path: "custom.locations.2", message: "Already listed" },
    ]);
    res = await save(env, token, { model: UNIT, name: "X", custom: { locations: "A" } }, 422);
    assert.equal(res.errors[0].path, "custom.locations");
    const kept = await save(env, token, { id: unit.id, name: "Midland 2" }, 200, "PUT");
    assert.deepEqual(kept.custom, { locations: ["North Yard", "Rack 2"], color: "red" }, "absent: kept");
    assert.equal(kept.model, UNIT, "PUT may leave the model out");
    const line = await save(env, token, {
      model: "Product Line",
      name: "L",
      custom: { locations: ["Base"] },
    });
    assert.deepEqual(line.custom, {}, "only business units have locations");
  }));

Deno.test("categories - a location holding stock cannot be removed; a rename takes its stock along", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await save(env, token, {
      model: UNIT,
      name: "Odessa",
      custom: { locations: ["North", "South", "East"] },
    });
    const stock = await makeInventory(env.tenant.db, {
      business_unit_id: unit.id,
      quantity: 10,
      quantity_out_location: 4,
    });
    const other = await makeInventory(env.tenant.db, { quantity: 5, quantity_out_location: 5 });
    await env.tenant.db.insert(inventory_locations).values([
      { inventory_id: stock.id, name: "North", quantity: 4 },
      { inventory_id: stock.id, name: "South", quantity: 0 },
      { inventory_id: other.id, name: "East", quantity: 5 }, // another unit's East
    ]);
    const put = (locations: string[], extra: Record<string, unknown> = {}, status = 200) =>
      save(
        env,
        token,
        { id: unit.id, model: UNIT, name: "Odessa", custom: { locations }, ...extra },
        status,
        "PUT",
      );

    let res = await put(["South", "East"], {}, 409);
    assert.equal(res.detail, "Location North still holds stock.");
    const afterRemove = await put(["North", "East"]);
    assert.deepEqual(afterRemove.custom.locations, ["North", "East"], "an empty location goes");
    const rows = () =>
      env.tenant.db.select({
        inv: inventory_locations.inventory_id,
        name: inventory_locations.name,
        q: inventory_locations.quantity,
      })
        .from(inventory_locations).orderBy(inventory_locations.id);
    assert.deepEqual(await rows(), [
      { inv: stock.id, name: "North", q: 4 },
      { inv: other.id, name: "East", q: 5 },
    ]);
    await put(["North"]); // East holds stock only in another unit

    res = await put(["North Yard"], { location_renames: [{ from: "North", to: "North Yard" }] });
    assert.deepEqual(res.custom.locations, ["North Yard"]);
    assert.deepEqual((await rows())[0], { inv: stock.id, name: "North Yard", q: 4 });
    const audit = await env.tenant.db.select().from(inventory_audit).where(
      eq(inventory_audit.inventory_id, stock.id),
    );
    assert.deepEqual(audit.map((a) => [a.action, a.locations, a.quantity_change]), [
      ["Location Renamed", "North Yard: 4", 0],
    ]);
    res = await put(["North Yard", "B"], { location_renames: [{ from: "North", to: "B" }] }, 422);
    assert.equal(res.detail, "Location North is not being renamed.");
    res = await put(["C"], { location_renames: [{ from: "North Yard", to: "D" }] }, 422);
    assert.equal(res.detail, "Location D is not a new name.");
  }));

Deno.test("categories - a category still in use is not deleted and the answer says what uses it", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const del = (id: number, status = 409) =>
      env.json(`/api/sales/categories/${id}`, { token, method: "DELETE", status });
    const itemCat = await makeCategory(env.tenant.db, { model: "Item Category", name: "Iron" });
    await makeItem(env.tenant.db, { category_id: itemCat.id });
    await makeItem(env.tenant.db, { category_id: itemCat.id });
    assert.equal((await del(itemCat.id)).detail, "This item category is used by 2 items.");

    const unit = await makeCategory(env.tenant.db, { name: "Busy Unit" });
    const invCat = await makeCategory(env.tenant.db, { model: "Inventory Category", name: "Rental Fleet" });
    await makeInventory(env.tenant.db, { business_unit_id: unit.id, category_id: invCat.id });
    await env.tenant.db.insert(templates).values({ company_id: 1, name: "T", business_unit_id: unit.id });
    assert.equal(
      (await del(unit.id)).detail,
      "This business unit is used by 1 inventory row and 1 template.",
    );
    assert.equal((await del(invCat.id)).detail, "This inventory category is used by 1 inventory row.");

    const line = await makeCategory(env.tenant.db, { model: "Product Line", name: "Flowback" });
    await env.tenant.db.insert(sub_categories).values({ company_id: 1, category_id: line.id, name: "Iron" });
    assert.equal((await del(line.id)).detail, "This product line is used by 1 sub product line.");
    const token2 = await env.login();
    assert.equal(
      (await env.json("/api/sales/categories?model=Product%20Line", { token: token2 })).total,
      1,
      "still there",
    );
  }));

Deno.test("categories - only sales-admin writes; customer users cannot even read", () =>
  withEnv(async (env) => {
    const unit = await makeCategory(env.tenant.db, { name: "Yard" });
    const { token } = await env.userWithToken({ permissions: ["inspector"] });
    assert.deepEqual(names(await env.json("/api/sales/categories?model=Business%20Unit", { token })), [
      "Yard",
    ]);
    await save(env, token, { model: UNIT, name: "X" }, 403);
    await save(env, token, { id: unit.id, model: UNIT, name: "" }, 403, "PUT");
    await env.json(`/api/sales/categories/${unit.id}`, { token, method: "DELETE", status: 403 });
    const customer = await makeCompany(env.tenant.db);
    const outsider = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    await env.json("/api/sales/categories?model=Business%20Unit", { token: outsider.token, status: 403 });
    await save(env, outsider.token, { model: UNIT, name: "X" }, 403);
  }));

Deno.test("categories - another tenant sees none of them and their ids are 404 there", () =>
  withEnv(async (env) => {
    const unit = await makeCategory(env.tenant.db, { name: "Acme Yard" });
    await env.addTenant("beta", "beta.test");
    const beta = { token: await env.login(ADMIN.email, ADMIN.password, "beta.test"), host: "beta.test" };
    assert.equal((await env.json("/api/sales/categories?model=Business%20Unit", beta)).total, 0);
    await env.json("/api/sales/categories", {
      ...beta,
      method: "PUT",
      json: { id: unit.id, model: UNIT, name: "Hijack" },
      status: 404,
    });
    await env.json(`/api/sales/categories/${unit.id}`, { ...beta, method: "DELETE", status: 404 });
    // The same name is free in the other tenant.
    await env.json("/api/sales/categories", {
      ...beta,
      method: "POST",
      json: { model: UNIT, name: "Acme Yard" },
    });
  }));
