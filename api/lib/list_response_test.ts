import assert from "node:assert/strict";
import { withEnv } from "../../scripts/testing/harness.ts";
import { parts } from "../../db/schema/mod.ts";
import { DownloadReads, listResponse } from "./list_query.ts";

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

Deno.test("every-row lists - a download's reads are sized by their pace, each starting at the rows read so far", () => {
  const reads = new DownloadReads(true);
  const steps: [number, number][] = [];
  const read = (ms: number) => {
    steps.push([reads.page, reads.size]);
    reads.next(reads.size, ms);
  };
  // Fast reads grow to the largest size as soon as the rows read are a whole number of its pages.
  for (let i = 0; i < 6; i++) read(0.1);
  // A slow read (16 ms for 800 rows: 50 a ms) brings the next to the size that takes about 2 ms.
  read(16);
  read(1);
  assert.deepEqual(steps, [[1, 100], [2, 100], [2, 200], [2, 400], [2, 800], [3, 800], [4, 800], [33, 100]]);
  // Whatever the paces, a page always starts at the rows read so far.
  let seed = 3;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const r = new DownloadReads(true);
  let done = 0;
  for (let i = 0; i < 2000; i++) {
    assert.equal((r.page - 1) * r.size, done);
    done += r.size;
    r.next(r.size, random() * 10);
  }
  // A read by OFFSET is mostly the rows it skips: its size stays, fast or slow.
  const offset = new DownloadReads(false);
  for (const ms of [0.1, 300, 5]) {
    assert.equal(offset.size, 1000);
    offset.next(1000, ms);
  }
  assert.equal(offset.page, 4);
});

Deno.test("every-row lists - other requests get a turn after each read, before the answer starts", async () => {
  // A turn is a timer's: each one that fires in between could have been another request's.
  const order: string[] = [];
  const turn = () => setTimeout(() => order.push("turn"), 0);
  const list = (q: { page: number; rowsPerPage: number }) => {
    order.push(`read ${q.page}`);
    return Promise.resolve({ results: q.page === 1 ? [{ a: 1 }] : [], total: 1 });
  };
  turn();
  await listResponse({ page: -1, rowsPerPage: 50 }, list, "results", {
    rows: () => {
      order.push("rows");
      turn();
      return Promise.resolve((async function* () {
        yield { a: 1 };
      })());
    },
  });
  order.push("answer");
  assert.deepEqual(order, ["read 1", "turn", "rows", "turn", "answer"]);

  order.length = 0;
  turn();
  const res = await listResponse({ page: -1, rowsPerPage: 50 }, list);
  order.push("answer");
  assert.deepEqual(order.slice(0, 2), ["read 1", "turn"]);
  assert.equal(order.at(-1), "answer");
  assert.deepEqual(await res.json(), { total: 1, results: [{ a: 1 }] });
});
