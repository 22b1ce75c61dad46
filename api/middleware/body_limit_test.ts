import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { MAX_BODY_BYTES } from "./body_limit.ts";

const CHUNK = 64 * 1024;

/** A chunked body (no Content-Length) of `total` bytes that counts how much the server pulled. */
function countingBody(total: number, fill = 0x20) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (seen.pulled >= total) return ctl.close();
      const n = Math.min(CHUNK, total - seen.pulled);
      seen.pulled += n;
      ctl.enqueue(new Uint8Array(n).fill(fill));
    },
  });
  return { stream, seen };
}

function post(env: TestEnv, path: string, body: BodyInit, headers: Record<string, string>) {
  return env.app.request(`http://acme.test${path}`, {
    method: "POST",
    headers: { host: "acme.test", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

Deno.test("body limit - a chunked JSON body is cut at the limit with 413 before the rest is read", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { stream, seen } = countingBody(200 * 1024 * 1024);
    const res = await post(env, "/api/companies", stream, {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
    });
    assert.equal(res.status, 413);
    assert.match((await res.json()).detail, /larger than 1 MB/);
    assert.ok(seen.pulled <= MAX_BODY_BYTES + 2 * CHUNK, `pulled ${seen.pulled} bytes`);
  }));

Deno.test("body limit - signed out too: a chunked sign-in form is cut at the limit", () =>
  withEnv(async (env) => {
    const { stream, seen } = countingBody(50 * 1024 * 1024, 0x61);
    const res = await post(env, "/signin", stream, { "content-type": "application/x-www-form-urlencoded" });
    assert.equal(res.status, 413);
    assert.ok(seen.pulled <= MAX_BODY_BYTES + 2 * CHUNK, `pulled ${seen.pulled} bytes`);
  }));

Deno.test("body limit - a declared Content-Length over the limit is refused unread", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const body = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES), company_type: "customer_company" });
    const res = await post(env, "/api/companies", body, {
      "content-type": "application/json",
      "content-length": String(new TextEncoder().encode(body).length),
      authorization: `Bearer ${token}`,
    });
    assert.equal(res.status, 413);
  }));

Deno.test("body limit - upload routes keep their own, larger limit", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const rows = Array.from({ length: 3000 }, (_, i) => `SN-${i},${"d".repeat(500)}`).join("\n");
    const form = new FormData();
    form.set("file", new File([`serial,description\n${rows}`], "big.csv", { type: "text/csv" }));
    const res = await env.app.request("http://acme.test/api/sales/batch/parse", {
      method: "POST",
      headers: { host: "acme.test", authorization: `Bearer ${token}` },
      body: form,
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal((await res.json()).rows.length, 3001);
  }));
