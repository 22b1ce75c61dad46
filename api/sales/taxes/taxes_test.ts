import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { companies } from "../../../db/schema/mod.ts";
import { joinTaxSearch, splitTaxSearch } from "./rules.ts";

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

async function newTax(env: TestEnv, token: string, json: Record<string, unknown>) {
  return await env.json("/api/sales/taxes", { token, method: "POST", json });
}

Deno.test("taxes - a sales admin creates, reads, updates and deletes a tax", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ permissions: ["sales-admin"] });
    const created = await newTax(env, token, {
      name: " Midland ",
      state: "TX",
      county: "Midland",
      city: "Midland",
      state_rate: "6.25",
      county_rate: 0.5,
      city_rate: "1.5",
      notes: "Permian",
    });
    assert.equal(created.message, "Tax created");
    assert.deepEqual({ ...created, id: 0 }, {
      id: 0,
      version: 1,
      company_id: 1,
      created_by_id: user.id,
      name: "Midland",
      state: "TX",
      county: "Midland",
      city: "Midland",
      state_rate: 6.25,
      county_rate: 0.5,
      city_rate: 1.5,
      rate: 8.25,
      notes: "Permian",
      message: "Tax created",
    });

    const list = await env.json("/api/sales/taxes?search_name=midland", { token });
    assert.equal(list.total, 1);
    assert.equal(list.results[0].rate, 8.25);

    const updated = await env.json("/api/sales/taxes", {
      token,
      method: "PUT",
      json: { id: created.id, city_rate: 2, notes: null },
    });
    assert.equal(updated.message, "Tax updated");
    assert.equal(updated.rate, 8.75, "the sum follows a changed rate");
    assert.equal(updated.notes, "");
    assert.equal(updated.name, "Midland", "absent fields are left as stored");

    const explicit = await env.json("/api/sales/taxes", {
      token,
      method: "PUT",
      json: { id: created.id, rate: 9 },
    });
    assert.equal(explicit.rate, 9, "a given rate is kept");
    const renamed = await env.json("/api/sales/taxes", {
      token,
      method: "PUT",
      json: { id: created.id, name: "Midland City" },
    });
    assert.equal(renamed.rate, 9, "an edit that touches no rate keeps the rate");

    assert.deepEqual(await env.json(`/api/sales/taxes/${created.id}`, { token, method: "DELETE" }), {
      message: "Tax deleted",
    });
    assert.equal((await env.json("/api/sales/taxes", { token })).total, 0);
    await env.json(`/api/sales/taxes/${created.id}`, { token, method: "DELETE", status: 404 });
  }));

Deno.test("taxes - nothing is required, rates are numbers from 0 to 100, PUT needs an id", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const empty = await newTax(env, token, {});
    assert.deepEqual([empty.name, empty.state, empty.state_rate, empty.rate], ["", "", null, null]);
    const blank = await newTax(env, token, { state_rate: "", county_rate: null, city_rate: " " });
    assert.equal(blank.rate, null);
    const bad = await env.json("/api/sales/taxes", {
      token,
      method: "POST",
      json: { state_rate: "abc", county_rate: -1, city_rate: 101, rate: true },
      status: 422,
    });
    assert.deepEqual(bad.errors, [
      { path: "state_rate", message: "Must be a number" },
      { path: "county_rate", message: "Must be between 0 and 100" },
      { path: "city_rate", message: "Must be between 0 and 100" },
      { path: "rate", message: "Must be a number" },
    ]);
    const noId = await env.json("/api/sales/taxes", {
      token,
      method: "PUT",
      json: { name: "X" },
      status: 422,
    });
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
    const sum = await newTax(env, token, { state_rate: 6.25, county_rate: 0.1, city_rate: 0.2 });
    assert.equal(sum.rate, 6.55);
  }));

Deno.test("taxes - search covers name, state, county and city; ' | ' searches the fields; % is literal", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await newTax(env, token, { name: "Permian 50%", state: "TX", county: "Midland", city: "Midland" });
    await newTax(env, token, { name: "Permian 500", state: "TX", county: "Ector", city: "Odessa" });
    await newTax(env, token, { name: "Bakken", state: "ND", county: "Williams", city: "Williston" });
    await newTax(env, token, { name: "Odessa Override", state: "TX", county: "Midland", city: "Midland" });
    const get = (qs: string) => env.json(`/api/sales/taxes?${qs}`, { token });
    assert.deepEqual(names(await get("search_name=50%25")), ["Permian 50%"]);
    assert.deepEqual(names(await get("search_name=odessa")), ["Odessa Override", "Permian 500"]);
    assert.deepEqual(names(await get("search_name=WILLI")), ["Bakken"]);
    assert.deepEqual(names(await get("search_state=tx&search_county=midland")), [
      "Odessa Override",
      "Permian 50%",
    ]);
    assert.deepEqual(names(await get("search_city=odessa")), ["Permian 500"]);
    assert.deepEqual(names(await get("search_state=ND&search_city=Odessa")), []);
    // The client's split of the search text, as the page sends it.
    const qs = new URLSearchParams(splitTaxSearch("TX | Ector") as Record<string, string>).toString();
    assert.deepEqual(names(await get(qs)), ["Permian 500"]);
  }));

Deno.test("taxes - the search text splits on ' | ' into state, county and city and joins back", () => {
  assert.deepEqual(splitTaxSearch("Midland"), { search_name: "Midland" });
  assert.deepEqual(splitTaxSearch("a|b"), { search_name: "a|b" });
  assert.deepEqual(splitTaxSearch("TX | Midland | Midland"), {
    search_state: "TX",
    search_county: "Midland",
    search_city: "Midland",
  });
  assert.deepEqual(splitTaxSearch("TX |"), { search_state: "TX" });
  assert.deepEqual(splitTaxSearch(" | Ector"), { search_county: "Ector" });
  assert.deepEqual(splitTaxSearch("  "), {});
  assert.equal(joinTaxSearch({ search_county: "Ector" }), " | Ector");
  assert.equal(joinTaxSearch({ search_state: "TX", search_city: "Odessa" }), "TX |  | Odessa");
  assert.deepEqual(splitTaxSearch(joinTaxSearch({ search_state: "TX", search_city: "Odessa" })), {
    search_state: "TX",
    search_city: "Odessa",
  });
});

Deno.test("taxes - the list pages and sorts by name, state, county or city", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await newTax(env, token, { name: "b", state: "NM", county: "Lea", city: "Hobbs" });
    await newTax(env, token, { name: "A", state: "TX", county: "Ector", city: "Odessa" });
    await newTax(env, token, { name: "c", state: "ND", county: "Williams", city: "Williston" });
    const get = (qs: string) => env.json(`/api/sales/taxes?${qs}`, { token });
    const first = await get("rowsPerPage=2");
    assert.deepEqual([names(first), first.total], [["A", "b"], 3]);
    assert.deepEqual(names(await get("rowsPerPage=2&page=2")), ["c"]);
    assert.deepEqual(names(await get("rowsPerPage=-1&descending=true")), ["c", "b", "A"]);
    assert.deepEqual(names(await get("sortBy=state")), ["c", "b", "A"]);
    assert.deepEqual(names(await get("sortBy=county")), ["A", "b", "c"]);
    assert.deepEqual(names(await get("sortBy=city&descending=true")), ["c", "A", "b"]);
    await env.json("/api/sales/taxes?sortBy=rate", { token, status: 422 });
  }));

Deno.test("taxes - a tax a company uses cannot be deleted (409)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const tax = await newTax(env, token, { name: "Used" });
    const customer = await makeCompany(env.tenant.db, { tax_id: tax.id });
    const res = await env.json(`/api/sales/taxes/${tax.id}`, { token, method: "DELETE", status: 409 });
    assert.equal(res.detail, "This tax is used by a company.");
    await env.tenant.db.update(companies).set({ tax_id: null }).where(eq(companies.id, customer.id));
    await env.json(`/api/sales/taxes/${tax.id}`, { token, method: "DELETE" });
  }));

Deno.test("taxes - staff without sales-admin read but cannot write; customer users get 403", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const tax = await newTax(env, admin, { name: "Shared" });
    const { token } = await env.userWithToken({ permissions: ["job-admin"] });
    assert.deepEqual(names(await env.json("/api/sales/taxes", { token })), ["Shared"]);
    for (
      const [method, path, json] of [
        ["POST", "/api/sales/taxes", { name: "X" }],
        ["POST", "/api/sales/taxes", { id: tax.id, name: "X" }],
        ["PUT", "/api/sales/taxes", { id: tax.id, state_rate: "abc" }],
        ["DELETE", `/api/sales/taxes/${tax.id}`, undefined],
      ] as const
    ) {
      const res = await env.json(path, { token, method, json, status: 403 });
      assert.equal(res.detail, "You do not have permission to do that.");
    }
    const customer = await makeCompany(env.tenant.db);
    const outsider = await env.userWithToken({ company_id: customer.id, permissions: ["sales-admin"] });
    const res = await env.json("/api/sales/taxes", { token: outsider.token, status: 403 });
    assert.equal(res.detail, "Sales & Inventory is for the company's own staff.");
    await env.json("/api/sales/taxes", { token: outsider.token, method: "POST", json: {}, status: 403 });
    await env.json("/api/sales/taxes", { status: 401 });
  }));

Deno.test("taxes - another tenant sees none of them and their ids are 404 there", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const tax = await newTax(env, tokenA, { name: "Only In Acme" });
    await env.addTenant("beta", "beta.test");
    const beta = { token: await env.login(ADMIN.email, ADMIN.password, "beta.test"), host: "beta.test" };
    assert.equal((await env.json("/api/sales/taxes", beta)).total, 0);
    await env.json("/api/sales/taxes", {
      ...beta,
      method: "PUT",
      json: { id: tax.id, name: "X" },
      status: 404,
    });
    await env.json(`/api/sales/taxes/${tax.id}`, { ...beta, method: "DELETE", status: 404 });
    assert.deepEqual(names(await env.json("/api/sales/taxes", { token: tokenA })), ["Only In Acme"]);
  }));
