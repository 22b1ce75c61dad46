// Decision 038: every editable record answers an ETag; a stale If-Match is 412 with the record as it is
// now; no If-Match saves as before. One table of record kinds, the same checks for each.
import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../scripts/testing/harness.ts";
import { makeLine, makeTicket } from "../db/factories.ts";

interface Kind {
  name: string;
  /** makes a record; answers its id */
  make(env: TestEnv): Promise<number>;
  /** the single-record GET */
  get(id: number): string;
  /** an edit: the request and the field it changes, with a new value on each call */
  edit(id: number, n: number): { method: string; path: string; json: Record<string, unknown> };
  /** the field the edit changes, as the GET answers it */
  field: string;
  del?(id: number): { method: string; path: string; json?: unknown };
}

export const KINDS: Kind[] = [
  {
    name: "ticket header",
    make: async (env) => (await makeTicket(env.tenant.db)).id,
    get: (id) => `/api/sales/tickets/${id}`,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/tickets", json: { id, notes: `notes ${n}` } }),
    field: "notes",
    del: (id) => ({ method: "DELETE", path: `/api/sales/tickets/${id}` }),
  },
  {
    name: "ticket line",
    make: async (env) => (await makeLine(env.tenant.db)).id,
    get: (id) => `/api/sales/sales/${id}`,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/sales", json: { id, discount: n } }),
    field: "discount",
    del: (id) => ({ method: "DELETE", path: `/api/sales/sales/${id}` }),
  },
];

async function send(env: TestEnv, token: string, r: ReturnType<Kind["edit"]>, ifMatch?: string) {
  return await env.request(r.path, {
    method: r.method,
    token,
    json: r.json,
    headers: ifMatch === undefined ? {} : { "if-match": ifMatch },
  });
}

export async function checkKind(env: TestEnv, token: string, k: Kind) {
  const id = await k.make(env);
  const got = await env.request(k.get(id), { token });
  assert.equal(got.status, 200, `${k.name}: GET`);
  const tag = got.headers.get("etag");
  assert.match(tag ?? "", /^"\d+"$/, `${k.name}: GET answers a strong ETag`);
  assert.equal(`"${(await got.json()).version}"`, tag, `${k.name}: the body's version is the ETag`);

  const ok = await send(env, token, k.edit(id, 1), tag!);
  assert.equal(ok.status, 200, `${k.name}: PUT with the current ETag: ${await ok.clone().text()}`);
  const newTag = ok.headers.get("etag");
  assert.ok(newTag && newTag !== tag, `${k.name}: the save answers a new ETag (${tag} -> ${newTag})`);
  assert.equal(`"${(await ok.json()).version}"`, newTag);

  const stale = await send(env, token, k.edit(id, 2), tag!);
  assert.equal(stale.status, 412, `${k.name}: PUT with the old ETag`);
  assert.equal(stale.headers.get("etag"), newTag, `${k.name}: the 412 names the current ETag`);
  const body = await stale.json();
  assert.match(body.detail, /Someone else changed this record/);
  assert.equal(body.current.id, id);
  assert.equal(`"${body.current.version}"`, newTag);
  assert.equal(
    String(body.current[k.field]),
    String(k.edit(id, 1).json[k.field]),
    "current holds the first save",
  );
  const after = await env.json(k.get(id), { token });
  assert.equal(
    String(after[k.field]),
    String(k.edit(id, 1).json[k.field]),
    `${k.name}: the stale save wrote nothing`,
  );

  const weak = await send(env, token, k.edit(id, 3), `W/${newTag}`);
  assert.equal(weak.status, 412, `${k.name}: a weak tag never matches (strong comparison)`);

  const plain = await send(env, token, k.edit(id, 4));
  assert.equal(plain.status, 200, `${k.name}: without If-Match as before: ${await plain.clone().text()}`);

  if (k.del) {
    const d = k.del(id);
    const refused = await env.request(d.path, {
      method: d.method,
      token,
      json: d.json,
      headers: { "if-match": tag! },
    });
    assert.equal(refused.status, 412, `${k.name}: DELETE with a stale ETag`);
    assert.equal((await refused.json()).current.id, id);
    await env.json(k.get(id), { token });
    const current = (await env.request(k.get(id), { token })).headers.get("etag")!;
    const gone = await env.request(d.path, {
      method: d.method,
      token,
      json: d.json,
      headers: { "if-match": current },
    });
    assert.equal(gone.status, 200, `${k.name}: DELETE with the current ETag: ${await gone.clone().text()}`);
  }
}

Deno.test("record versions - every record kind: ETag on GET, 200 and a new ETag with it, 412 with the record when stale, no If-Match as before", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const k of KINDS) await checkKind(env, token, k);
  }));

Deno.test("record versions - two saves racing with the same If-Match: exactly one passes", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const k of KINDS) {
      const id = await k.make(env);
      const tag = (await env.request(k.get(id), { token })).headers.get("etag")!;
      const answers = await Promise.all([1, 2, 3].map((n) => send(env, token, k.edit(id, 10 + n), tag)));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 412, 412], `${k.name}: ${statuses}`);
    }
  }));

Deno.test("record versions - a line's hold moving (check-in, stock) leaves its version; a rejection's status change bumps the ticket's", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const line = await makeLine(env.tenant.db);
    const before = (await env.json(`/api/sales/sales/${line.id}`, { token })).version;
    await env.tenant.write((tx) =>
      tx.run(`update sales set quantity_held = 1, "order" = 5 where id = ${line.id}`)
    );
    assert.equal((await env.json(`/api/sales/sales/${line.id}`, { token })).version, before);
    const t = await makeTicket(env.tenant.db, { status: "RFA" });
    await env.json("/api/sales/rejections", {
      method: "POST",
      token,
      json: { ticket_id: t.id, comment: "wrong rate", resolved: false },
    });
    assert.equal((await env.json(`/api/sales/tickets/${t.id}`, { token })).version, t.version + 1);
  }));
