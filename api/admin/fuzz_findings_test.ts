import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";

// Faults the API fuzzer (api/fuzz*_test.ts) found, kept as plain tests.

Deno.test("users - an id that is an object answers 422, not 500", () =>
  withEnv(async (env) => {
    const token = await env.login();
    // JSON.parse gives this object an own, non-callable toString: Number() of it throws.
    const res = await env.request("/api/admin/users", {
      token,
      method: "POST",
      json: { id: { toString: 1 }, name: "X", phone: "1", password: "long-enough-1" },
    });
    assert.equal(res.status, 422, await res.text());
  }));

Deno.test("companies - a tax that does not exist answers 422 'Unknown tax' and nothing is stored", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await env.json("/api/companies", {
      token,
      method: "POST",
      json: { name: "Dangling Tax Co", company_type: "customer_company", tax_id: 999 },
      status: 422,
    });
    assert.deepEqual(res.errors, [{ path: "tax_id", message: "Unknown tax" }]);
    const found = await env.json("/api/companies?search_name=Dangling", { token });
    assert.equal(found.total, 0);
  }));
