// Decision 038: every editable record answers an ETag; a stale If-Match is 412 with the record as it is
// now; no If-Match saves as before. One table of record kinds, the same checks for each.
import assert from "node:assert/strict";
import { type TestEnv, withEnv } from "../scripts/testing/harness.ts";
import {
  makeCategory,
  makeCompany,
  makeInspection,
  makeInventory,
  makeItem,
  makeJob,
  makeLine,
  makePart,
  makeTicket,
  makeUser,
} from "../db/factories.ts";
import type { User } from "../db/schema/mod.ts";
import { sub_categories, taxes, templates } from "../db/schema/mod.ts";

const JOB = {
  date: "2026-01-05",
  job_number: "J-V",
  district: "Permian",
  inspector: "Inspector",
  uv_serial_number: "UV-1",
  uv_recalibration_date: "2026-01-01",
  blacklight_reading: "1200",
  ut_serial_number: "UT-1",
  ut_recalibration_date: "2026-01-01",
  comments: "",
};
/** a sub category's product line, a template's business unit */
const subParent = new Map<number, number>();
const jobParties = new Map<number, { customer_company_id: number; operator_company_id: number }>();
/** an inspection's job */
const inspectionJob = new Map<number, number>();
const madeUsers = new Map<number, User>();

interface Kind {
  name: string;
  /** makes a record; answers its id */
  make(env: TestEnv): Promise<number>;
  /** the single-record GET, or the list whose rows carry the version */
  get(id: number): string;
  /** `get` is a list: the record is its row of that id */
  list?: boolean;
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
    name: "job",
    make: async (env) => {
      const job = await makeJob(env.tenant.db);
      jobParties.set(job.id, {
        customer_company_id: job.customer_company_id,
        operator_company_id: job.operator_company_id,
      });
      return job.id;
    },
    get: (id) => `/api/pt/jobs/${id}`,
    edit: (id, n) => ({
      method: "PATCH",
      path: "/api/pt/jobs",
      json: { ...JOB, ...jobParties.get(id), id, job_number: `J-V-${id}`, comments: `c ${n}` },
    }),
    field: "comments",
    del: (id) => ({ method: "DELETE", path: `/api/pt/jobs/${id}` }),
  },
  {
    name: "tax",
    make: async (env) =>
      (await env.tenant.db.insert(taxes).values({ company_id: 1, name: "T" }).returning())[0].id,
    get: () => "/api/sales/taxes?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/taxes", json: { id, name: `T ${n}` } }),
    field: "name",
    del: (id) => ({ method: "DELETE", path: `/api/sales/taxes/${id}` }),
  },
  {
    name: "category",
    make: async (env) => (await makeCategory(env.tenant.db, { model: "Item Category" })).id,
    get: () => "/api/sales/categories?page=1&rowsPerPage=-1&model=Item Category",
    list: true,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/categories", json: { id, name: `Cat ${n}` } }),
    field: "name",
    del: (id) => ({ method: "DELETE", path: `/api/sales/categories/${id}` }),
  },
  {
    name: "sub category",
    make: async (env) => {
      const line = await makeCategory(env.tenant.db, { model: "Product Line" });
      const [row] = await env.tenant.db.insert(sub_categories)
        .values({ company_id: 1, category_id: line.id, name: "Sub" }).returning();
      subParent.set(row.id, line.id);
      return row.id;
    },
    get: () => "/api/sales/sub_categories?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({
      method: "PUT",
      path: "/api/sales/sub_categories",
      json: { id, category_id: subParent.get(id), name: `Sub ${n}` },
    }),
    field: "name",
    del: (id) => ({ method: "DELETE", path: `/api/sales/sub_categories/${id}` }),
  },
  {
    name: "template",
    make: async (env) => {
      const unit = await makeCategory(env.tenant.db);
      const [row] = await env.tenant.db.insert(templates)
        .values({ company_id: 1, name: "Tpl", business_unit_id: unit.id }).returning();
      subParent.set(row.id, unit.id);
      return row.id;
    },
    get: (id) => `/api/sales/templates?page=1&rowsPerPage=-1&search_business_unit=${subParent.get(id)}`,
    list: true,
    edit: (id, n) => ({
      method: "PUT",
      path: "/api/sales/templates",
      json: { id, name: `Tpl ${n}`, business_unit_id: subParent.get(id), inventory_ids: [] },
    }),
    field: "name",
    del: (id) => ({ method: "DELETE", path: `/api/sales/templates/${id}` }),
  },
  {
    name: "item",
    make: async (env) => (await makeItem(env.tenant.db)).id,
    get: () => "/api/sales/items?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/items", json: { id, item_description: `d ${n}` } }),
    field: "item_description",
    del: (id) => ({ method: "DELETE", path: `/api/sales/items/${id}` }),
  },
  {
    name: "inventory row",
    make: async (env) => (await makeInventory(env.tenant.db)).id,
    get: () => "/api/sales/inventory?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({ method: "PUT", path: "/api/sales/inventory", json: { id, location: `Rack ${n}` } }),
    field: "location",
    del: (id) => ({ method: "DELETE", path: `/api/sales/inventory/${id}` }),
  },
  {
    name: "company",
    make: async (env) => (await makeCompany(env.tenant.db, { company_type: "customer_company" })).id,
    get: () => "/api/admin/companies?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({
      method: "PATCH",
      path: "/api/companies",
      json: { id, name: `Co ${n}`, company_type: "customer_company" },
    }),
    field: "name",
    del: (id) => ({ method: "DELETE", path: `/api/companies/${id}` }),
  },
  {
    name: "inspection",
    make: async (env) => {
      const row = await makeInspection(env.tenant.db);
      inspectionJob.set(row.id, row.job_id);
      return row.id;
    },
    get: () => "/api/pt/inspections?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({
      method: "PATCH",
      path: "/api/pt/inspections",
      json: { id, job_id: inspectionJob.get(id), date: "2026-01-05", notes: `n ${n}` },
    }),
    field: "notes",
    del: (id) => ({ method: "DELETE", path: `/api/pt/inspections/${id}` }),
  },
  {
    name: "part",
    make: async (env) => (await makePart(env.tenant.db)).id,
    get: () => "/api/pt/parts?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => ({ method: "PATCH", path: "/api/pt/parts", json: { id, description: `d ${n}` } }),
    field: "description",
    del: (id) => ({ method: "DELETE", path: `/api/pt/parts/${id}` }),
  },
  {
    name: "user",
    make: async (env) => {
      const user = await makeUser(env.tenant.db, { company_id: 1 });
      madeUsers.set(user.id, user);
      return user.id;
    },
    get: () => "/api/admin/users?page=1&rowsPerPage=-1",
    list: true,
    edit: (id, n) => {
      const u = madeUsers.get(id)!;
      return {
        method: "POST",
        path: "/api/admin/users",
        json: {
          id,
          name: u.name,
          email: u.email,
          phone: `555-${n}`,
          account_type: u.account_type,
          company_id: 1,
        },
      };
    },
    field: "phone",
    del: (id) => ({ method: "DELETE", path: "/api/admin/users", json: { id } }),
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

/** The record as its GET answers it, and its ETag (a list row's version as one). */
async function read(env: TestEnv, token: string, k: Kind, id: number) {
  const got = await env.request(k.get(id), { token });
  assert.equal(got.status, 200, `${k.name}: GET`);
  const body = await got.json();
  if (k.list) {
    const row = body.results.find((r: { id: number }) => r.id === id);
    assert.ok(row, `${k.name}: the list has the row`);
    assert.equal(typeof row.version, "number", `${k.name}: list rows carry the version`);
    return { tag: `"${row.version}"`, body: row };
  }
  const tag = got.headers.get("etag");
  assert.match(tag ?? "", /^"\d+"$/, `${k.name}: GET answers a strong ETag`);
  assert.equal(`"${body.version}"`, tag, `${k.name}: the body's version is the ETag`);
  return { tag: tag!, body };
}

export async function checkKind(env: TestEnv, token: string, k: Kind) {
  const id = await k.make(env);
  const { tag } = await read(env, token, k, id);

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
  const after = (await read(env, token, k, id)).body;
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
    const current = (await read(env, token, k, id)).tag;
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
      const { tag } = await read(env, token, k, id);
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
