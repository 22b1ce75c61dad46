import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { parts } from "../../db/schema/mod.ts";

const PARTS = 2_345;

Deno.test("every-row lists - rowsPerPage=-1 and page=-1 answer every row, in order, streamed a page at a time", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    await db.insert(parts).values(
      Array.from({ length: PARTS }, (_, i) => ({
        name: `Part ${String(i).padStart(5, "0")}`,
        inspection_company_id: 1,
      })),
    );
    const paged: unknown[] = [];
    for (let page = 1; page <= 5; page++) {
      paged.push(
        ...(await env.json(`/api/pt/parts?rowsPerPage=500&page=${page}&descending=true`, { token })).results,
      );
    }
    assert.equal(paged.length, PARTS);

    for (const query of ["rowsPerPage=-1", "page=-1", "page=-1&rowsPerPage=25"]) {
      const r = await env.request(`/api/pt/parts?${query}&descending=true`, { token });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
      const reader = r.body!.getReader();
      const chunks: Uint8Array[] = [];
      for (let c = await reader.read(); !c.done; c = await reader.read()) chunks.push(c.value);
      assert.ok(chunks.length >= 3, `${query}: the rows came in ${chunks.length} chunk(s), not page by page`);
      const body = JSON.parse(new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))));
      assert.equal(body.total, PARTS, query);
      assert.deepEqual(body.results, paged, query);
    }
  }));

Deno.test("every-row lists - an empty list, another list's extra fields, and a bad filter refused before the answer starts", () =>
  withEnv(async (env) => {
    const token = await env.login();
    assert.deepEqual(
      await env.json("/api/pt/parts?rowsPerPage=-1&search_name=nothing-like-this", { token }),
      {
        results: [],
        total: 0,
      },
    );
    const inventory = await env.json("/api/sales/inventory?rowsPerPage=-1", { token });
    const single = await env.json("/api/sales/inventory?rowsPerPage=1000", { token });
    assert.deepEqual(inventory, single);
    const bad = await env.request("/api/pt/jobs?rowsPerPage=-1&sortBy=nope", { token });
    assert.equal(bad.status, 422);
  }));
