import assert from "node:assert/strict";
import { openClient, useSqldRoute } from "./client.ts";
import { createNamespace, namespaceUrl, sqldRoute } from "./sqld.ts";
import { sqldAvailable, withSqld } from "../scripts/testing/sqld.ts";

Deno.test({
  name:
    "sqld route - with SQLD_ADDRESS, a namespace named under a host that does not resolve is reached at that address",
  ignore: !sqldAvailable(),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withSqld(async (sqld) => {
      const port = new URL(sqld.config.baseUrl).port;
      // As in a compose network: the namespaces' names have no DNS; sqld is reached by its service address.
      const baseUrl = `http://db.internal:${port}`;
      const { token } = await createNamespace(sqld.config, "routed");
      const url = namespaceUrl(baseUrl, "routed");
      const unrouted = await openClient(url, token);
      await assert.rejects(unrouted.execute("select 1"), "db.internal does not resolve here");
      unrouted.close();
      useSqldRoute(sqldRoute(baseUrl, `127.0.0.1:${port}`));
      try {
        const client = await openClient(url, token);
        await client.execute("create table t (x)");
        await client.execute("insert into t values (42)");
        assert.deepEqual((await client.execute("select x from t")).rows.map((r) => r.x), [42]);
        client.close();
      } finally {
        useSqldRoute(undefined);
      }
    }),
});
