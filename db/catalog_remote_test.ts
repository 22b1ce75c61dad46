import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../api/config.ts";
import { closeServices, createApp, createServices } from "../api/app.ts";
import { Catalog } from "./catalog.ts";
import { createTenant } from "./provision.ts";
import { createNamespace } from "./sqld.ts";
import { sqldAvailable, withSqld } from "../scripts/testing/sqld.ts";

const opts = { ignore: !sqldAvailable(), sanitizeResources: false, sanitizeOps: false };

function tempDir() {
  return mkdtempSync(join(tmpdir(), "catalog-remote-"));
}

Deno.test({
  ...opts,
  name: "catalog on sqld - two catalogs opened together share tenants, hosts and the session secret",
  fn: () =>
    withSqld(async (sqld) => {
      const remote = await createNamespace(sqld.config, "catalog");
      const dirA = tempDir(), dirB = join(tempDir(), "never-made");
      // Both find a new catalog and migrate it at once: the loser of the race finds it done.
      const [a, b] = await Promise.all([Catalog.open(dirA, remote), Catalog.open(dirB, remote)]);
      try {
        assert.ok(!existsSync(dirB), "a catalog on a server needs no DATA_DIR");
        const [secretA, secretB] = await Promise.all([a.sessionSecret(), b.sessionSecret()]);
        assert.equal(secretA, secretB);
        await createTenant(a, {
          slug: "shared",
          name: "Shared Co",
          hosts: ["shared.test"],
          adminEmail: "boss@shared.test",
          adminPassword: "shared-password",
          remote: true,
          scryptN: 1024,
        }, sqld.config);
        assert.equal((await b.resolveHost("Shared.test:8000"))?.slug, "shared");
        assert.deepEqual(await b.hostsTaken(["shared.test"]), ["shared.test"]);
        assert.equal(await b.count(), 1);
        // The catalog itself is a namespace only its token opens.
        await assert.rejects(
          Catalog.open(dirA, { url: remote.url }),
          /^Error: the catalog at http:\/\/catalog\.localhost:\d+ cannot be used: .*401/,
        );
      } finally {
        a.close();
        b.close();
        rmSync(dirA, { recursive: true, force: true });
      }
    }),
});

Deno.test({
  ...opts,
  name: "catalog on sqld - a session signed in on one app instance is valid on another",
  fn: () =>
    withSqld(async (sqld) => {
      const remote = await createNamespace(sqld.config, "catalog");
      const instance = async () => {
        const dataDir = tempDir();
        const services = await createServices(parseConfig({
          DATA_DIR: dataDir,
          SCRYPT_N: "1024",
          LOG_REQUESTS: "false",
          DEMO_TENANT: "false",
          CATALOG_URL: remote.url,
          CATALOG_TOKEN: remote.token,
          ...sqld.env,
        }));
        return { dataDir, services, app: createApp(services) };
      };
      const one = await instance(), two = await instance();
      try {
        await createTenant(one.services.catalog, {
          slug: "shared",
          name: "Shared Co",
          hosts: ["shared.test"],
          adminEmail: "boss@shared.test",
          adminPassword: "shared-password",
          remote: true,
          scryptN: 1024,
        }, sqld.config);
        const signIn = await one.app.request("http://shared.test/api/login/access-token", {
          method: "POST",
          headers: { host: "shared.test", "content-type": "application/x-www-form-urlencoded" },
          body: "username=boss%40shared.test&password=shared-password",
        });
        assert.equal(signIn.status, 200);
        const { access_token } = await signIn.json();
        const me = await two.app.request("http://shared.test/api/admin/users/me", {
          headers: { host: "shared.test", authorization: `Bearer ${access_token}` },
        });
        assert.equal(me.status, 200);
        assert.equal((await me.json()).company.name, "Shared Co");
      } finally {
        for (const i of [one, two]) {
          await closeServices(i.services);
          rmSync(i.dataDir, { recursive: true, force: true });
        }
      }
    }),
});
