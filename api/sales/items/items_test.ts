import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory, inventory_audit, items } from "../../../db/schema/mod.ts";

const numbers = (body: { results: { item_number: string }[] }) => body.results.map((r) => r.item_number);

/** A user of the owner company with exactly these roles. */
async function tokenWith(env: TestEnv, permissions: string[], company_id = 1) {
  return (await env.userWithToken({ permissions, company_id })).token;
}

const stock = (env: TestEnv) => env.tenant.db.select().from(inventory);
const audits = (env: TestEnv) => env.tenant.db.select().from(inventory_audit);

Deno.test("items - a sales admin creates, reads, updates and deletes an item", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cat = await makeCategory(env.tenant.db, { model: "Item Category", name: "Iron" });
    const created = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: {
        item_number: "  SW-3 ",
        item_description: "3in swivel",
        rate: "125.5",
        units: "Per Day",
        inventory_type: "Itemized",
        item_type: "Rental",
        isTaxable: true,
        category_id: cat.id,
        notes: "Keep greased",
        custom: { color: "red" },
      },
    });
    assert.equal(created.message, "Item created");
    assert.deepEqual(
      { ...created, id: 0, created_at: "", updated_at: "", created_by_id: 0 },
      {
        id: 0,
        version: 1,
        item_number: "SW-3",
        item_description: "3in swivel",
        rate: 125.5,
        units: "Per Day",
        inventory_type: "Itemized",
        item_type: "Rental",
        isTaxable: true,
        isExpendable: false,
        isService: false,
        category_id: cat.id,
        category: { id: cat.id, name: "Iron" },
        notes: "Keep greased",
        custom: { color: "red" },
        company_id: 1,
        created_by_id: 0,
        created_at: "",
        updated_at: "",
        message: "Item created",
      },
    );

    const list = await env.json("/api/sales/items?search_item_number=sw-3", { token });
    assert.equal(list.total, 1);
    const { message: _, ...row } = created;
    assert.deepEqual(list.results[0], row);

    const updated = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: created.id, item_description: "3in swivel joint", rate: null, category_id: null },
    });
    assert.equal(updated.message, "Item updated");
    assert.deepEqual(
      [updated.item_number, updated.item_description, updated.rate, updated.category, updated.notes],
      ["SW-3", "3in swivel joint", null, null, "Keep greased"],
      "absent fields are left as stored; null clears",
    );
    const viaPost = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { id: created.id, isService: true },
    });
    assert.equal(viaPost.message, "Item updated");
    assert.equal(viaPost.isService, true);

    assert.deepEqual(await env.json(`/api/sales/items/${created.id}`, { token, method: "DELETE" }), {
      message: "Item deleted",
    });
    assert.equal((await env.json("/api/sales/items", { token })).total, 0);
    await env.json(`/api/sales/items/${created.id}`, { token, method: "DELETE", status: 404 });
    await env.json("/api/sales/items", { token, method: "PUT", json: { id: created.id }, status: 404 });
  }));

Deno.test("items - item_number and inventory_type are required; rate and category are checked", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const missing = await env.json("/api/sales/items", { token, method: "POST", json: {}, status: 422 });
    assert.deepEqual(missing.errors, [
      { path: "item_number", message: "Required" },
      { path: "inventory_type", message: "Required" },
    ]);
    const bad = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "  ", inventory_type: "Gadget", rate: -1 },
      status: 422,
    });
    assert.deepEqual(bad.errors, [
      { path: "rate", message: "Must be at least 0" },
      { path: "item_number", message: "Required" },
      { path: "inventory_type", message: "Required" },
    ]);
    const nan = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "A", inventory_type: "Itemized", rate: "lots" },
      status: 422,
    });
    assert.deepEqual(nan.errors, [{ path: "rate", message: "Must be a number" }]);
    const unit = await makeCategory(env.tenant.db, { model: "Business Unit" });
    const wrongModel = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "A", inventory_type: "Itemized", category_id: unit.id },
      status: 422,
    });
    assert.deepEqual(wrongModel.errors, [{ path: "category_id", message: "Unknown item category" }]);
    const noId = await env.json("/api/sales/items", { token, method: "PUT", json: {}, status: 422 });
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
    assert.equal((await env.tenant.db.select().from(items)).length, 0);
  }));

Deno.test("items - item numbers are unique ignoring case (409)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await makeItem(env.tenant.db, { item_number: "PV-2" });
    const other = await makeItem(env.tenant.db, { item_number: "PV-3" });
    const dup = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "pv-2", inventory_type: "Itemized" },
      status: 409,
    });
    assert.equal(dup.detail, "An item with this number already exists.");
    await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: other.id, item_number: "Pv-2" },
      status: 409,
    });
    const same = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: other.id, item_number: "pv-3" },
    });
    assert.equal(same.item_number, "pv-3", "an item may change the case of its own number");
  }));

Deno.test("items - search by number and description (contains, % literal), type filter, sort and paging", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    await makeItem(env.tenant.db, {
      item_number: "b-100",
      item_description: "Valve 50% bore",
      rate: 30,
      item_type: "Sales",
    });
    await makeItem(env.tenant.db, { item_number: "A-200", item_description: "Valve 500 bore", rate: 10 });
    await makeItem(env.tenant.db, {
      item_number: "c-300",
      item_description: "Tee_Joint",
      rate: 20,
      inventory_type: "Serialized",
    });
    const q = (s: string) => env.json(`/api/sales/items?${s}`, { token }).then(numbers);
    assert.deepEqual(await q(""), ["A-200", "b-100", "c-300"]);
    assert.deepEqual(await q("search_item_description=50%25"), ["b-100"]);
    assert.deepEqual(await q("search_item_description=e_j"), ["c-300"]);
    assert.deepEqual(await q("search_item_description=VALVE"), ["A-200", "b-100"]);
    assert.deepEqual(await q("search_item_number=00&search_item_description=bore"), ["A-200", "b-100"]);
    assert.deepEqual(await q("inventory_type=Serialized"), ["c-300"]);
    assert.deepEqual(await q("descending=true"), ["c-300", "b-100", "A-200"]);
    assert.deepEqual(await q("sortBy=rate"), ["A-200", "c-300", "b-100"]);
    assert.deepEqual(await q("sortBy=item_description&descending=true"), ["A-200", "b-100", "c-300"]);
    assert.deepEqual(await q("sortBy=item_description"), ["c-300", "b-100", "A-200"]);
    assert.deepEqual(await q("sortBy=inventory_type"), ["A-200", "b-100", "c-300"]);
    assert.deepEqual(await q("sortBy=item_type"), ["A-200", "c-300", "b-100"]);
    const page2 = await env.json("/api/sales/items?rowsPerPage=2&page=2", { token });
    assert.deepEqual([numbers(page2), page2.total], [["c-300"], 3]);
    assert.equal((await env.json("/api/sales/items?rowsPerPage=-1", { token })).results.length, 3);
    await env.json("/api/sales/items?sortBy=notes", { token, status: 422 });
  }));

Deno.test("items - the list pages 20 at a time and serves the item autocomplete", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (let i = 0; i < 22; i++) {
      await makeItem(env.tenant.db, {
        item_number: `N-${String(i).padStart(2, "0")}`,
        item_description: "Hose",
      });
    }
    const hits = await env.json("/api/sales/items?search_item_description=hose", { token });
    assert.equal(hits.total, 22);
    assert.equal(hits.results.length, 20);
    const { id, item_description, item_number } = hits.results[0];
    assert.deepEqual({ item_description, item_number }, { item_description: "Hose", item_number: "N-00" });
    assert.equal(typeof id, "number");
  }));

Deno.test("items - the download is Items-YYYY-MM-DD.xlsx of every matching item, formulas neutralised", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cat = await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
    await makeItem(env.tenant.db, {
      item_number: "X-1",
      item_description: "=HYPERLINK()",
      rate: 12.5,
      isTaxable: true,
      category_id: cat.id,
    });
    for (let i = 0; i < 25; i++) await makeItem(env.tenant.db, { item_number: `X-${i + 10}` });
    await makeItem(env.tenant.db, { item_number: "Other" });
    const res = await env.request("/api/sales/items/download?search_item_number=x-&rowsPerPage=20", {
      token,
    });
    assert.equal(res.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Items-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], [
      "Item Number",
      "Item",
      "Rate",
      "Units",
      "Inventory Type",
      "Item Type",
      "Taxable",
      "Expendable",
      "Service",
      "Category",
      "Notes",
    ]);
    assert.equal(rows.length, 27);
    assert.deepEqual(rows[1].slice(0, 10), [
      "X-1",
      "'=HYPERLINK()",
      12.5,
      "Per Day",
      "Itemized",
      "Rental",
      "Yes",
      "No",
      "No",
      "Flow Iron",
    ]);
  }));

Deno.test("items - a General user reads but may not write (403); customer users may not read", () =>
  withEnv(async (env) => {
    const item = await makeItem(env.tenant.db);
    const general = await tokenWith(env, ["inspector", "job-admin"]);
    assert.equal((await env.json("/api/sales/items", { token: general })).total, 1);
    const denied = await env.json("/api/sales/items", {
      token: general,
      method: "POST",
      json: { item_number: "X", inventory_type: "Itemized" },
      status: 403,
    });
    assert.equal(denied.detail, "You do not have permission to do that.");
    await env.json("/api/sales/items", { token: general, method: "POST", json: {}, status: 403 });
    await env.json("/api/sales/items", { token: general, method: "PUT", json: { id: item.id }, status: 403 });
    await env.json(`/api/sales/items/${item.id}`, { token: general, method: "DELETE", status: 403 });
    await env.json("/api/sales/items/batch", { token: general, method: "POST", json: [], status: 403 });

    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    const outsider = await tokenWith(env, ["sales-admin", "superuser"], customer.id);
    const res = await env.json("/api/sales/items", { token: outsider, status: 403 });
    assert.equal(res.detail, "Sales & Inventory is for the company's own staff.");
    await env.json("/api/sales/items/download", { token: outsider, status: 403 });
    await env.json("/api/sales/items", {
      token: outsider,
      method: "POST",
      json: { item_number: "X", inventory_type: "Itemized" },
      status: 403,
    });
    await env.json("/api/sales/items", { status: 401 });
  }));

Deno.test("items - add_to_inventory creates the stock row and exactly one audit row", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const unit = await makeCategory(env.tenant.db, { model: "Business Unit", name: "Odessa" });
    const created = await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: {
        item_number: "PUMP-1",
        item_description: "Triplex pump",
        inventory_type: "Serialized",
        add_to_inventory: {
          inventory_serial_number: "SN-77",
          inventory_quantity: 1,
          inventory_business_unit_id: unit.id,
        },
      },
    });
    const rows = await stock(env);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      [
        rows[0].item_id,
        rows[0].business_unit_id,
        rows[0].serial_number,
        rows[0].quantity,
        rows[0].company_id,
      ],
      [created.id, unit.id, "SN-77", 1, 1],
    );
    const log = await audits(env);
    assert.equal(log.length, 1);
    assert.deepEqual(
      [log[0].action, log[0].inventory_id, log[0].quantity, log[0].quantity_change, log[0].business_unit],
      ["Created", rows[0].id, 1, 1, "Odessa"],
    );
    assert.deepEqual(
      [log[0].item_number, log[0].serial_number, log[0].updated_by_id, log[0].updated_by_name],
      ["PUMP-1", "SN-77", user.id, user.name],
    );

    // On an update too, and false or null means nothing to add.
    await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: created.id, add_to_inventory: null, notes: "x" },
    });
    await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: {
        id: created.id,
        add_to_inventory: {
          inventory_serial_number: "SN-78",
          inventory_quantity: 0,
          inventory_business_unit_id: unit.id,
        },
      },
    });
    assert.equal((await stock(env)).length, 2);
    assert.equal((await audits(env)).length, 2);
  }));

Deno.test("items - add_to_inventory quantity: 0 to 1 for Serialized, else up to 100000000; a unit is required", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeCategory(env.tenant.db, { model: "Business Unit" });
    const post = (inventory_type: string, inventory_quantity: unknown, status = 422, extra = {}) =>
      env.json("/api/sales/items", {
        token,
        method: "POST",
        json: {
          item_number: `Q-${crypto.randomUUID()}`,
          inventory_type,
          add_to_inventory: { inventory_quantity, inventory_business_unit_id: unit.id, ...extra },
        },
        status,
      });
    const msg = async (p: Promise<{ errors: { path: string; message: string }[] }>) => (await p).errors;
    const at = "add_to_inventory.inventory_quantity";
    assert.deepEqual(await msg(post("Serialized", 2)), [{
      path: at,
      message: "Cannot exceed 1 for Serialized items",
    }]);
    assert.deepEqual(await msg(post("Itemized", -1)), [{ path: at, message: "Must be at least 0" }]);
    assert.deepEqual(await msg(post("Charge Code", 100_000_001)), [{
      path: at,
      message: "Cannot exceed 100000000",
    }]);
    assert.deepEqual(await msg(post("Itemized", 1.5)), [{ path: at, message: "Must be a whole number" }]);
    assert.deepEqual(await msg(post("Itemized", null)), [{ path: at, message: "Required" }]);
    assert.deepEqual(await msg(post("Itemized", 1, 422, { inventory_business_unit_id: null })), [
      { path: "add_to_inventory.inventory_business_unit_id", message: "Business Unit is required" },
    ]);
    const itemCategory = await makeCategory(env.tenant.db, { model: "Item Category" });
    assert.deepEqual(await msg(post("Itemized", 1, 422, { inventory_business_unit_id: itemCategory.id })), [
      { path: "add_to_inventory.inventory_business_unit_id", message: "Business Unit is required" },
    ]);
    await post("Serialized", 1, 200);
    await post("Serialized", 0, 200);
    await post("Itemized", 100_000_000, 200);
    await post("Itemized", "12", 200);
    assert.deepEqual((await stock(env)).map((r) => r.quantity), [1, 0, 100_000_000, 12]);
    assert.equal((await audits(env)).length, 4);

    // An update without a type is checked against the stored one.
    const serial = await makeItem(env.tenant.db, { inventory_type: "Serialized" });
    const upd = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: {
        id: serial.id,
        add_to_inventory: { inventory_quantity: 3, inventory_business_unit_id: unit.id },
      },
      status: 422,
    });
    assert.deepEqual(upd.errors, [{ path: at, message: "Cannot exceed 1 for Serialized items" }]);
  }));

Deno.test("items - nothing is saved when the item fails, nor when its inventory fails after it", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await makeCategory(env.tenant.db, { model: "Business Unit" });
    await makeItem(env.tenant.db, { item_number: "TAKEN" });
    const add = { inventory_serial_number: "S1", inventory_quantity: 5, inventory_business_unit_id: unit.id };
    await env.json("/api/sales/items", {
      token,
      method: "POST",
      json: { item_number: "taken", inventory_type: "Itemized", add_to_inventory: add },
      status: 409,
    });
    assert.equal((await stock(env)).length, 0);
    assert.equal((await audits(env)).length, 0);

    // The item is updated first; the inventory then collides with a stock row: both roll back.
    const item = await makeItem(env.tenant.db, { item_description: "Before" });
    await makeInventory(env.tenant.db, { item_id: item.id, business_unit_id: unit.id, serial_number: "s1" });
    const res = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: item.id, item_description: "After", add_to_inventory: add },
      status: 409,
    });
    assert.equal(
      res.detail,
      "This item already has inventory with this serial number in that business unit.",
    );
    const [stored] = await env.tenant.db.select().from(items).where(eq(items.id, item.id));
    assert.equal(stored.item_description, "Before");
    assert.equal((await stock(env)).length, 1);
    assert.equal((await audits(env)).length, 0);
  }));

Deno.test("items - becoming Serialized is refused while a stock row holds more than 1", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const item = await makeItem(env.tenant.db, { inventory_type: "Itemized" });
    const row = await makeInventory(env.tenant.db, { item_id: item.id, quantity: 2 });
    await makeInventory(env.tenant.db, { item_id: item.id, quantity: 1 });
    const res = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: item.id, inventory_type: "Serialized" },
      status: 409,
    });
    assert.match(res.detail, /holds more than 1/);
    await env.tenant.db.update(inventory).set({ quantity: 1 }).where(eq(inventory.id, row.id));
    const ok = await env.json("/api/sales/items", {
      token,
      method: "PUT",
      json: { id: item.id, inventory_type: "Serialized" },
    });
    assert.equal(ok.inventory_type, "Serialized");
  }));

Deno.test("items - an item with inventory cannot be deleted (409)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const item = await makeItem(env.tenant.db);
    await makeInventory(env.tenant.db, { item_id: item.id, quantity: 0 });
    const res = await env.json(`/api/sales/items/${item.id}`, { token, method: "DELETE", status: 409 });
    assert.equal(res.detail, "This item has inventory.");
    assert.equal((await env.json("/api/sales/items", { token })).total, 1);
  }));

Deno.test("items - a session is bound to its tenant; another tenant's ids are 404", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const created = await env.json("/api/sales/items", {
      token: tokenA,
      method: "POST",
      json: { item_number: "ONLY-A", inventory_type: "Itemized" },
    });
    await env.addTenant("beta", "beta.test");
    await env.json("/api/sales/items", { token: tokenA, host: "beta.test", status: 401 });
    const beta = { token: await env.login(ADMIN.email, ADMIN.password, "beta.test"), host: "beta.test" };
    assert.equal((await env.json("/api/sales/items", beta)).total, 0);
    await env.json(`/api/sales/items/${created.id}`, { ...beta, method: "DELETE", status: 404 });
    await env.json("/api/sales/items", { ...beta, method: "PUT", json: { id: created.id }, status: 404 });
    const same = await env.json("/api/sales/items", {
      ...beta,
      method: "POST",
      json: { item_number: "ONLY-A", inventory_type: "Itemized" },
    });
    assert.equal(same.message, "Item created", "item numbers are unique per tenant");
    assert.deepEqual(numbers(await env.json("/api/sales/items", { token: tokenA })), ["ONLY-A"]);
  }));
