import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { inventory } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, makeUnit, send, tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/templates";

/** A unit with a charge code, two itemized rows and a serialized one. */
async function stock(env: TestEnv, name = "Midland") {
  const unit = await makeUnit(env, [], name);
  const row = async (type: "Charge Code" | "Itemized" | "Serialized", serial: string, number: string) =>
    makeRow(env, {
      business_unit_id: unit.id,
      serial_number: serial,
      item_id: (await makeItemOf(env, type, { item_number: `${number}-${name}`, item_description: number }))
        .id,
    });
  return {
    unit,
    mileage: await row("Charge Code", `${name}-MIL`, "Mileage"),
    swivel: await row("Itemized", `${name}-SW`, "Swivel"),
    tee: await row("Itemized", `${name}-TEE`, "Tee"),
    valve: await row("Serialized", `${name}-PV1`, "Plug valve"),
  };
}

Deno.test("templates - a sales admin creates, lists, updates and deletes; the inventory keeps its order", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const { unit, mileage, swivel, tee } = await stock(env);
    const created = await send(env, token, "POST", PATH, {
      name: "  Flowback rig-up ",
      business_unit_id: String(unit.id),
      inventory_ids: [tee.id, mileage.id, swivel.id],
      company_id: 99,
      created_by_id: 99,
    });
    assert.equal(created.message, "Template created");
    assert.deepEqual(
      [created.name, created.company_id, created.created_by_id, created.business_unit],
      ["Flowback rig-up", 1, user.id, { id: unit.id, name: "Midland" }],
    );
    assert.deepEqual(created.inventory_ids, [tee.id, mileage.id, swivel.id]);
    assert.deepEqual(created.inventory.map((r: { serial_number: string }) => r.serial_number), [
      "Midland-TEE",
      "Midland-MIL",
      "Midland-SW",
    ]);
    assert.deepEqual(created.inventory[1].item, {
      item_number: "Mileage-Midland",
      item_description: "Mileage",
      inventory_type: "Charge Code",
    });

    const updated = await send(env, token, "PUT", PATH, {
      id: created.id,
      name: "Rig-up",
      business_unit_id: unit.id,
      inventory_ids: [swivel.id, tee.id],
    });
    assert.equal(updated.message, "Template updated");
    assert.deepEqual(updated.inventory_ids, [swivel.id, tee.id], "the new order");

    const listed = await env.json(`${PATH}?search_business_unit=${unit.id}`, { token });
    assert.equal(listed.total, 1);
    assert.deepEqual(listed.results[0].inventory_ids, [swivel.id, tee.id]);
    assert.deepEqual(listed.results[0].inventory.map((r: { id: number }) => r.id), [swivel.id, tee.id]);

    assert.deepEqual(await env.json(`${PATH}/${created.id}`, { token, method: "DELETE" }), {
      message: "Template deleted",
    });
    await env.json(`${PATH}/${created.id}`, { token, method: "DELETE", status: 404 });
    await send(env, token, "PUT", PATH, { id: created.id, name: "X", business_unit_id: unit.id }, 404);
  }));

Deno.test("templates - Name and Business Unit are required with the spec's messages; the unit must be a unit", () =>
  withEnv(async (env) => {
    const token = await env.login();
    let res = await send(env, token, "POST", PATH, { name: "  ", inventory_ids: [] }, 422);
    assert.deepEqual(res.errors, [
      { path: "name", message: "Name is required" },
      { path: "business_unit_id", message: "Business Unit is required" },
    ]);
    res = await send(env, token, "POST", PATH, { business_unit_id: null }, 422);
    assert.deepEqual(res.errors.map((e: { message: string }) => e.message), [
      "Name is required",
      "Business Unit is required",
    ]);
    const line = await makeCategory(env.tenant.db, { model: "Product Line", name: "Flowback" });
    res = await send(env, token, "POST", PATH, { name: "T", business_unit_id: line.id }, 422);
    assert.deepEqual(res.errors, [{ path: "business_unit_id", message: "Unknown business unit" }]);
    res = await send(env, token, "PUT", PATH, { name: "T", business_unit_id: line.id }, 422);
    assert.deepEqual(res.errors, [{ path: "id", message: "Required" }]);

    const unit = await makeUnit(env, [], "Pecos");
    await send(env, token, "POST", PATH, { name: "Standard", business_unit_id: unit.id });
    res = await send(env, token, "POST", PATH, { name: "STANDARD", business_unit_id: unit.id }, 409);
    assert.equal(res.detail, "A template with this name already exists in Pecos.");
    const other = await makeUnit(env, [], "Odessa");
    await send(env, token, "POST", PATH, { name: "Standard", business_unit_id: other.id });
  }));

Deno.test("templates - only charge-code and itemized inventory of the template's unit, each once", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const midland = await stock(env);
    const odessa = await stock(env, "Odessa");
    const save = (ids: number[]) =>
      send(
        env,
        token,
        "POST",
        PATH,
        { name: "T", business_unit_id: midland.unit.id, inventory_ids: ids },
        422,
      );
    let res = await save([midland.mileage.id, midland.valve.id, odessa.swivel.id, 999999]);
    assert.equal(res.detail, "Only charge-code and itemized inventory of the template's business unit");
    assert.deepEqual(res.errors.map((e: { path: string }) => e.path), [
      "inventory_ids.1",
      "inventory_ids.2",
      "inventory_ids.3",
    ]);
    res = await save([midland.swivel.id, midland.tee.id, midland.swivel.id]);
    assert.deepEqual(res.errors, [{ path: "inventory_ids.2", message: "Listed twice" }]);
    res = await save("nope" as unknown as number[]);
    assert.equal(res.errors[0].path, "inventory_ids");

    // A row that later goes is left out of what the template shows.
    const made = await send(env, token, "POST", PATH, {
      name: "T",
      business_unit_id: midland.unit.id,
      inventory_ids: [midland.tee.id, midland.mileage.id],
    });
    await env.tenant.db.delete(inventory).where(eq(inventory.id, midland.tee.id));
    const [shown] = (await env.json(`${PATH}?search_business_unit=${midland.unit.id}`, { token })).results;
    assert.deepEqual(shown.inventory_ids, [midland.mileage.id]);
    assert.equal(shown.id, made.id);
  }));

Deno.test("templates - listed only for a chosen unit, by name; name search; the unit's list for tickets", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const admin = await env.login();
    const { unit, mileage, swivel } = await stock(env);
    const other = await makeUnit(env, [], "Odessa");
    for (const name of ["Zeta", "Alpha", "Mid 50%"]) {
      await send(env, admin, "POST", PATH, {
        name,
        business_unit_id: unit.id,
        inventory_ids: name === "Alpha" ? [swivel.id, mileage.id] : [],
      });
    }
    await send(env, admin, "POST", PATH, { name: "Elsewhere", business_unit_id: other.id });
    const names = (b: { results: { name: string }[] }) => b.results.map((t) => t.name);
    assert.deepEqual(await env.json(PATH, { token }), { results: [], total: 0 }, "no unit: nothing");
    assert.deepEqual(names(await env.json(`${PATH}?search_business_unit=${unit.id}`, { token })), [
      "Alpha",
      "Mid 50%",
      "Zeta",
    ]);
    assert.deepEqual(
      names(await env.json(`${PATH}?search_business_unit=${unit.id}&search_name=50%25`, { token })),
      ["Mid 50%"],
    );
    const paged = await env.json(
      `${PATH}?search_business_unit=${unit.id}&rowsPerPage=2&page=2&descending=true&sortBy=name`,
      { token },
    );
    assert.deepEqual([names(paged), paged.total], [["Alpha"], 3]);
    await env.json(`${PATH}?search_business_unit=${unit.id}&sortBy=inventory_ids`, { token, status: 422 });

    const forTickets = await env.json(`${PATH}/business-unit/${unit.id}`, { token });
    assert.deepEqual(forTickets.results[0], {
      id: forTickets.results[0].id,
      name: "Alpha",
      inventory_ids: [swivel.id, mileage.id],
    });
    assert.deepEqual(names(forTickets), ["Alpha", "Mid 50%", "Zeta"]);
    await env.json(`${PATH}/business-unit/999999`, { token, status: 404 });
  }));

Deno.test("templates - only sales-admin writes; customer users cannot read; other tenants see none", () =>
  withEnv(async (env) => {
    const { unit } = await stock(env);
    const admin = await env.login();
    const made = await send(env, admin, "POST", PATH, { name: "T", business_unit_id: unit.id });
    const reader = await tokenWith(env, ["inspector"]);
    assert.equal((await env.json(`${PATH}?search_business_unit=${unit.id}`, { token: reader })).total, 1);
    await send(env, reader, "POST", PATH, { name: "X", business_unit_id: unit.id }, 403);
    await send(env, reader, "PUT", PATH, { id: made.id, name: "", business_unit_id: unit.id }, 403);
    await env.json(`${PATH}/${made.id}`, { token: reader, method: "DELETE", status: 403 });
    const customer = await makeCompany(env.tenant.db);
    const outsider = await tokenWith(env, ["sales-admin"], customer.id);
    await env.json(`${PATH}?search_business_unit=${unit.id}`, { token: outsider, status: 403 });
    await env.json(`${PATH}/business-unit/${unit.id}`, { token: outsider, status: 403 });
    await send(env, outsider, "POST", PATH, { name: "X", business_unit_id: unit.id }, 403);

    await env.addTenant("beta", "beta.test");
    const beta = { token: await env.login(ADMIN.email, ADMIN.password, "beta.test"), host: "beta.test" };
    assert.equal((await env.json(`${PATH}?search_business_unit=${unit.id}`, beta)).total, 0);
    await env.json(`${PATH}/business-unit/${unit.id}`, { ...beta, status: 404 });
    await env.json(PATH, {
      ...beta,
      method: "PUT",
      json: { id: made.id, name: "X", business_unit_id: 1 },
      status: 422,
    });
    await env.json(`${PATH}/${made.id}`, { ...beta, method: "DELETE", status: 404 });
    assert.equal((await env.json(`${PATH}?search_business_unit=${unit.id}`, { token: admin })).total, 1);
  }));
