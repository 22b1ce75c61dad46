import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { sqldAvailable, startSqldDatabase } from "../scripts/testing/sqld.ts";
import { createTenant } from "../db/provision.ts";

Deno.test({
  name:
    "unavailable database - a tenant whose libSQL server is gone answers 503 with a sentence, reads and writes",
  ignore: !sqldAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withEnv(async (env) => {
      const sqld = await startSqldDatabase();
      let far: string;
      try {
        await createTenant(env.services.catalog, {
          dbUrl: sqld.url,
          slug: "far",
          name: "Far Inspections",
          hosts: ["far.test"],
          adminEmail: "admin@far.test",
          adminPassword: "far-password-1",
          scryptN: 1024,
        });
        far = await env.login("admin@far.test", "far-password-1", "far.test");
        assert.equal((await env.request("/api/companies", { token: far, host: "far.test" })).status, 200);
      } finally {
        await sqld.stop();
      }
      const token = await env.login();
      for (
        const [method, json] of [["GET", undefined], ["POST", {
          name: "Lost",
          company_type: "customer_company",
        }]] as const
      ) {
        const r = await env.request("/api/companies", { method, json, host: "far.test", token: far });
        // The session is checked against the tenant's database first: that read already meets the dead server.
        assert.equal(r.status, 503, `${method}: ${r.status}`);
        assert.equal(r.headers.get("retry-after"), "1");
        assert.match((await r.json()).detail, /The database did not answer/);
      }
      // Other tenants are served.
      assert.equal((await env.request("/api/companies", { token })).status, 200);
    }),
});
