import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import { inspections, jobs } from "../../../db/schema/mod.ts";

const OWNER_ID = 1;
type Body = Record<string, any>;

async function partners(env: TestEnv, prefix = "") {
  const customer = await makeCompany(env.tenant.db, {
    name: `${prefix}Red River Energy`,
    company_type: "customer_company",
  });
  const operator = await makeCompany(env.tenant.db, {
    name: `${prefix}Basin Operating`,
    company_type: "operator_company",
  });
  return { customer, operator };
}

/** A complete job form for these companies. */
function form(customer_company_id: number, operator_company_id: number, over: Body = {}): Body {
  return {
    date: "2024-03-05",
    job_number: "J-100",
    district: "Permian",
    inspector: "Dwayne Carter",
    uv_serial_number: "UV-1001",
    uv_recalibration_date: "2024-01-15",
    blacklight_reading: "1200",
    ut_serial_number: "UT-2002",
    ut_recalibration_date: "2024-02-20",
    comments: "Frac stack, pad 4",
    customer_company_id,
    operator_company_id,
    ...over,
  };
}

const numbers = (body: { results: { job_number: string }[] }) => body.results.map((r) => r.job_number);
const fieldErrors = (body: { errors: { path: string; message: string }[] }) =>
  Object.fromEntries(body.errors.map((e) => [e.path, e.message]));

Deno.test("jobs - a job-admin creates, reads, updates and deletes a job (and its inspections)", () =>
  withEnv(async (env) => {
    const { token } = await env.userWithToken({ permissions: ["job-admin"] });
    const { customer, operator } = await partners(env);
    const created = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { custom: { po_number: "PO-7" } }),
    });
    assert.equal(created.message, "Job created");
    assert.equal(created.job_number, "J-100");
    assert.equal(created.date, "2024-03-05");
    assert.equal(created.comments, "Frac stack, pad 4");
    assert.deepEqual(created.custom, { po_number: "PO-7" });
    assert.deepEqual(created.customer_company, { id: customer.id, name: "Red River Energy" });
    assert.deepEqual(created.operator_company, { id: operator.id, name: "Basin Operating" });
    assert.equal(created.inspection_company.id, OWNER_ID);
    assert.equal(created.inspection_company_id, OWNER_ID);
    assert.equal(created.inspections, 0);

    const one = await env.json(`/api/pt/jobs/${created.id}`, { token });
    const { message: _message, ...saved } = created;
    assert.deepEqual(one, saved, "the single job has the list row's shape");

    const updated = await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: created.id, district: "Eagle Ford", date: "2024-03-06" }),
    });
    assert.equal(updated.message, "Job updated");
    assert.equal(updated.district, "Eagle Ford");
    assert.equal(updated.date, "2024-03-06");
    assert.deepEqual(updated.custom, { po_number: "PO-7" }, "absent custom is left as stored");

    const viaPost = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { id: created.id, inspector: "Pat Lee" }),
    });
    assert.equal(viaPost.message, "Job updated");
    assert.equal(viaPost.id, created.id);
    assert.equal(viaPost.inspector, "Pat Lee");

    await makeInspection(env.tenant.db, { job_id: created.id });
    await makeInspection(env.tenant.db, { job_id: created.id });
    assert.equal((await env.json(`/api/pt/jobs/${created.id}`, { token })).inspections, 2);

    const deleted = await env.json(`/api/pt/jobs/${created.id}`, { token, method: "DELETE" });
    assert.deepEqual(deleted, { message: "Job deleted" });
    await env.json(`/api/pt/jobs/${created.id}`, { token, status: 404 });
    await env.json(`/api/pt/jobs/${created.id}`, { token, method: "DELETE", status: 404 });
    const left = await env.tenant.db.select().from(inspections).where(eq(inspections.job_id, created.id));
    assert.deepEqual(left, [], "the job's inspections go with it");
  }));

Deno.test("jobs - missing or malformed fields are 422 with the job form's messages", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { customer, operator } = await partners(env);
    const empty = await env.json("/api/pt/jobs", { token, method: "POST", json: {}, status: 422 });
    assert.deepEqual(fieldErrors(empty), {
      date: "Required",
      job_number: "Required",
      district: "Required",
      inspector: "Required",
      uv_serial_number: "Required",
      uv_recalibration_date: "Required",
      blacklight_reading: "Required",
      ut_serial_number: "Required",
      ut_recalibration_date: "Required",
      comments: "Required",
      customer_company_id: "Customer is required",
      operator_company_id: "Operator is required",
    });

    const blanks = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, {
        job_number: "   ",
        comments: null,
        date: "",
        customer_company_id: "",
        operator_company_id: null,
      }),
      status: 422,
    });
    assert.deepEqual(fieldErrors(blanks), {
      job_number: "Required",
      comments: "Required",
      date: "Required",
      customer_company_id: "Customer is required",
      operator_company_id: "Operator is required",
    });

    const dates = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, {
        date: "2024-02-30",
        uv_recalibration_date: "03/05/2024",
        ut_recalibration_date: "2024-3-5",
      }),
      status: 422,
    });
    assert.deepEqual(fieldErrors(dates), {
      date: "Invalid date",
      uv_recalibration_date: "Invalid date",
      ut_recalibration_date: "Invalid date",
    });

    // Companies must exist and be of the right kind: a customer is not an operator, and vice versa.
    const swapped = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(operator.id, customer.id),
      status: 422,
    });
    assert.deepEqual(fieldErrors(swapped), {
      customer_company_id: "Customer is required",
      operator_company_id: "Operator is required",
    });
    const missing = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(999999, operator.id),
      status: 422,
    });
    assert.deepEqual(missing.errors, [{ path: "customer_company_id", message: "Customer is required" }]);
    assert.equal(missing.detail, "Customer is required");

    const noId = await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(customer.id, operator.id),
      status: 422,
    });
    assert.deepEqual(noId.errors, [{ path: "id", message: "Required" }]);
    await env.json("/api/pt/jobs", { token, method: "POST", json: [1, 2], status: 422 });
    assert.equal((await env.json("/api/pt/jobs", { token })).total, 0, "nothing was saved");
  }));

Deno.test("jobs - a job number is unique within the inspection company, whatever its case", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { customer, operator } = await partners(env);
    const first = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "ab-1" }),
    });
    const dup = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: " AB-1 " }),
      status: 409,
    });
    assert.equal(dup.detail, "A job with this number already exists.");
    // keeping its own number is no conflict
    await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: first.id, job_number: "AB-1" }),
    });
    const other = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "ab-2" }),
    });
    await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: other.id, job_number: "ab-1" }),
      status: 409,
    });
    // another inspection company of the tenant may use the same number
    const rival = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    await makeJob(env.tenant.db, { inspection_company_id: rival.id, job_number: "AB-3" });
    await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "ab-3" }),
    });
  }));

Deno.test("jobs - changing a job's customer or operator moves its inspections with it", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const before = await partners(env, "Old ");
    const after = await partners(env, "New ");
    const job = await makeJob(env.tenant.db, {
      customer_company_id: before.customer.id,
      operator_company_id: before.operator.id,
    });
    const a = await makeInspection(env.tenant.db, { job_id: job.id });
    const b = await makeInspection(env.tenant.db, { job_id: job.id });
    const untouched = await makeInspection(env.tenant.db, {
      job_id: (await makeJob(env.tenant.db, {
        customer_company_id: before.customer.id,
        operator_company_id: before.operator.id,
      })).id,
    });
    const saved = await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(after.customer.id, after.operator.id, { id: job.id, job_number: job.job_number }),
    });
    assert.equal(saved.customer_company.name, "New Red River Energy");
    assert.equal(saved.operator_company.name, "New Basin Operating");
    assert.equal(saved.inspections, 2);
    const rows = await env.tenant.db.select().from(inspections);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [a.id, b.id]) {
      assert.equal(byId.get(id)!.customer_company_id, after.customer.id);
      assert.equal(byId.get(id)!.operator_company_id, after.operator.id);
    }
    assert.equal(byId.get(untouched.id)!.customer_company_id, before.customer.id);
    // the new customer's users now see the job; the old customer's no longer do
    const newCust = await env.userWithToken({ company_id: after.customer.id });
    const oldCust = await env.userWithToken({ company_id: before.customer.id });
    assert.deepEqual(numbers(await env.json("/api/pt/jobs", { token: newCust.token })), [job.job_number]);
    await env.json(`/api/pt/jobs/${job.id}`, { token: oldCust.token, status: 404 });
  }));

Deno.test("jobs - the list searches by customer, operator, job number and date, % taken literally", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const acme = await makeCompany(env.tenant.db, {
      name: "Acme 100% Oil",
      company_type: "customer_company",
    });
    const bolt = await makeCompany(env.tenant.db, { name: "Bolt Energy", company_type: "customer_company" });
    const op1 = await makeCompany(env.tenant.db, { name: "North_Ops", company_type: "operator_company" });
    const op2 = await makeCompany(env.tenant.db, { name: "NorthXOps", company_type: "operator_company" });
    const j = (job_number: string, customer_company_id: number, operator_company_id: number, date: string) =>
      makeJob(env.tenant.db, { job_number, customer_company_id, operator_company_id, date });
    await j("J-50%-A", acme.id, op1.id, "2024-05-01");
    await j("J-500", bolt.id, op2.id, "2024-05-02");
    await j("K-7", bolt.id, op1.id, "2024-05-01");

    const q = (s: string) => env.json(`/api/pt/jobs?${s}`, { token });
    assert.deepEqual(numbers(await q("search_customer_name=100%25")), ["J-50%-A"]);
    assert.deepEqual(numbers(await q("search_customer_name=BOLT")), ["J-500", "K-7"]);
    assert.deepEqual(numbers(await q("search_operator_name=north_")), ["K-7", "J-50%-A"]);
    assert.deepEqual(numbers(await q("search_operator_name=northx")), ["J-500"]);
    assert.deepEqual(numbers(await q("search_job_number=50%25")), ["J-50%-A"]);
    assert.deepEqual(numbers(await q("search_job_number=j-50")), ["J-500", "J-50%-A"]);
    assert.equal((await q("search_job_number=%25")).total, 1);
    assert.deepEqual(numbers(await q("job_date=2024-05-02")), ["J-500"]);
    assert.deepEqual(numbers(await q("job_date=2024-05-01&search_customer_name=bolt")), ["K-7"]);
    assert.equal(
      (await q("search_customer_name=&search_job_number=&job_date=")).total,
      3,
      "blank = no filter",
    );
    await env.json("/api/pt/jobs?job_date=2024-13-01", { token, status: 422 });
    await env.json("/api/pt/jobs?job_date=05-01-2024", { token, status: 422 });
  }));

Deno.test("jobs - the list is newest first by default, sorts by each column and pages with totals", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cA = await makeCompany(env.tenant.db, { name: "a-cust", company_type: "customer_company" });
    const cB = await makeCompany(env.tenant.db, { name: "B-cust", company_type: "customer_company" });
    const oA = await makeCompany(env.tenant.db, { name: "a-op", company_type: "operator_company" });
    const oB = await makeCompany(env.tenant.db, { name: "B-op", company_type: "operator_company" });
    const mk = (
      job_number: string,
      date: string,
      c: number,
      o: number,
      district: string,
      inspector: string,
    ) =>
      makeJob(env.tenant.db, {
        job_number,
        date,
        customer_company_id: c,
        operator_company_id: o,
        district,
        inspector,
      });
    await mk("J-2", "2024-01-02", cB.id, oA.id, "b-district", "Cy");
    await mk("J-1", "2024-01-03", cA.id, oB.id, "A-district", "ann");
    await mk("J-3", "2024-01-01", cA.id, oA.id, "c-district", "Bob");
    await mk("J-4", "2024-01-02", cB.id, oB.id, "d-district", "dee"); // same date as J-2, made later

    const q = async (s = "") => numbers(await env.json(`/api/pt/jobs?${s}`, { token }));
    assert.deepEqual(await q(), ["J-1", "J-4", "J-2", "J-3"], "date descending, then the newest id");
    assert.deepEqual(await q("descending=false"), ["J-3", "J-2", "J-4", "J-1"]);
    assert.deepEqual(await q("sortBy=job_number&descending=false"), ["J-1", "J-2", "J-3", "J-4"]);
    assert.deepEqual(await q("sortBy=customer&descending=false"), ["J-1", "J-3", "J-2", "J-4"]);
    assert.deepEqual(await q("sortBy=operator&descending=false"), ["J-2", "J-3", "J-1", "J-4"]);
    assert.deepEqual(await q("sortBy=district&descending=false"), ["J-1", "J-2", "J-3", "J-4"]);
    assert.deepEqual(await q("sortBy=inspector"), ["J-4", "J-2", "J-3", "J-1"]);
    await env.json("/api/pt/jobs?sortBy=password", { token, status: 422 });

    const p1 = await env.json("/api/pt/jobs?rowsPerPage=3&page=1", { token });
    assert.equal(p1.total, 4);
    assert.deepEqual(numbers(p1), ["J-1", "J-4", "J-2"]);
    const p2 = await env.json("/api/pt/jobs?rowsPerPage=3&page=2", { token });
    assert.equal(p2.total, 4);
    assert.deepEqual(numbers(p2), ["J-3"]);
    const all = await env.json("/api/pt/jobs?rowsPerPage=-1", { token });
    assert.equal(all.results.length, 4);
    const filtered = await env.json("/api/pt/jobs?rowsPerPage=1&search_customer_name=b-cust", { token });
    assert.equal(filtered.total, 2, "the total counts every filtered row, not the page");
    assert.deepEqual(numbers(filtered), ["J-4"]);
  }));

Deno.test("jobs - customer and operator users see only the jobs where their company is named", () =>
  withEnv(async (env) => {
    const x = await partners(env, "X ");
    const y = await partners(env, "Y ");
    const jx = await makeJob(env.tenant.db, {
      job_number: "X-1",
      customer_company_id: x.customer.id,
      operator_company_id: y.operator.id,
    });
    const jy = await makeJob(env.tenant.db, {
      job_number: "Y-1",
      customer_company_id: y.customer.id,
      operator_company_id: x.operator.id,
    });
    const cust = await env.userWithToken({ company_id: x.customer.id, permissions: ["job-admin"] });
    const list = await env.json("/api/pt/jobs?rowsPerPage=-1", { token: cust.token });
    assert.deepEqual(numbers(list), ["X-1"]);
    assert.equal(list.total, 1);
    await env.json(`/api/pt/jobs/${jx.id}`, { token: cust.token });
    await env.json(`/api/pt/jobs/${jy.id}`, { token: cust.token, status: 404 });
    await env.request(`/api/pt/jobs/${jx.id}/report`, { token: cust.token }).then(async (r) => {
      assert.equal(r.status, 200);
      await r.body?.cancel();
    });
    await env.json(`/api/pt/jobs/${jy.id}/report`, { token: cust.token, status: 404 });

    const op = await env.userWithToken({ company_id: x.operator.id });
    assert.deepEqual(numbers(await env.json("/api/pt/jobs", { token: op.token })), ["Y-1"]);
    await env.json(`/api/pt/jobs/${jx.id}`, { token: op.token, status: 404 });
    // searching by another customer's name reveals nothing
    const peek = await env.json("/api/pt/jobs?search_customer_name=Y Red", { token: op.token });
    assert.deepEqual(numbers(peek), ["Y-1"], "the operator's own job, whose customer is Y");
    assert.equal((await env.json("/api/pt/jobs?search_customer_name=Y Red", { token: cust.token })).total, 0);
  }));

Deno.test("jobs - a Data-Entry user sees only the jobs assigned to them and cannot create one", () =>
  withEnv(async (env) => {
    const { customer, operator } = await partners(env);
    const mine = await makeJob(env.tenant.db, { job_number: "MINE" });
    const other = await makeJob(env.tenant.db, { job_number: "OTHER" });
    const clerk = await env.userWithToken({
      account_type: "Data-Entry",
      jobs: [mine.id],
      permissions: ["inspector", "job-admin"],
    });
    assert.deepEqual(numbers(await env.json("/api/pt/jobs", { token: clerk.token })), ["MINE"]);
    await env.json(`/api/pt/jobs/${other.id}`, { token: clerk.token, status: 404 });
    await env.json(`/api/pt/jobs/${other.id}/report`, { token: clerk.token, status: 404 });
    await env.json("/api/pt/jobs", {
      token: clerk.token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: other.id, job_number: "OTHER" }),
      status: 404,
    });
    await env.json(`/api/pt/jobs/${other.id}`, { token: clerk.token, method: "DELETE", status: 404 });
    const refused = await env.json("/api/pt/jobs", {
      token: clerk.token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "NEW" }),
      status: 403,
    });
    assert.ok(refused.detail);
    // with job-admin, an assigned job can be edited
    const edited = await env.json("/api/pt/jobs", {
      token: clerk.token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: mine.id, job_number: "MINE" }),
    });
    assert.equal(edited.customer_company.id, customer.id);

    const none = await env.userWithToken({ account_type: "Data-Entry", jobs: [] });
    assert.equal((await env.json("/api/pt/jobs", { token: none.token })).total, 0);
  }));

Deno.test("jobs - a second inspection company of the tenant sees and touches none of the owner's jobs", () =>
  withEnv(async (env) => {
    const { customer, operator } = await partners(env);
    const owned = await makeJob(env.tenant.db, { customer_company_id: customer.id });
    const rival = await makeCompany(env.tenant.db, { name: "Rival NDT", company_type: "inspection_company" });
    const { token } = await env.userWithToken({ company_id: rival.id, permissions: ["job-admin"] });
    assert.equal((await env.json("/api/pt/jobs?rowsPerPage=-1", { token })).total, 0);
    await env.json(`/api/pt/jobs/${owned.id}`, { token, status: 404 });
    await env.json(`/api/pt/jobs/${owned.id}/report`, { token, status: 404 });
    await env.json("/api/pt/jobs", {
      token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: owned.id }),
      status: 404,
    });
    await env.json(`/api/pt/jobs/${owned.id}`, { token, method: "DELETE", status: 404 });
    await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id, { inspection_company_id: OWNER_ID }),
      status: 403,
    });
    const own = await env.json("/api/pt/jobs", {
      token,
      method: "POST",
      json: form(customer.id, operator.id),
    });
    assert.equal(own.inspection_company.name, "Rival NDT");
    const admin = await env.login();
    const ownerList = await env.json("/api/pt/jobs?rowsPerPage=-1", { token: admin });
    assert.deepEqual(ownerList.results.map((r: Body) => r.id), [owned.id]);
    const stored = await env.tenant.db.select().from(jobs).where(eq(jobs.id, owned.id));
    assert.equal(stored[0].job_number, owned.job_number, "the owner's job is unchanged");
  }));

Deno.test("jobs - who may write: inspection staff create, job-admins edit and delete, partners only read", () =>
  withEnv(async (env) => {
    const { customer, operator } = await partners(env);
    const job = await makeJob(env.tenant.db, { customer_company_id: customer.id });
    const custUser = await env.userWithToken({ company_id: customer.id, permissions: ["job-admin"] });
    await env.json("/api/pt/jobs", {
      token: custUser.token,
      method: "POST",
      json: form(customer.id, operator.id),
      status: 403,
    });
    await env.json("/api/pt/jobs", {
      token: custUser.token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: job.id }),
      status: 403,
    });
    await env.json(`/api/pt/jobs/${job.id}`, { token: custUser.token, method: "DELETE", status: 403 });
    const opUser = await env.userWithToken({ company_id: operator.id, permissions: ["job-admin"] });
    await env.json("/api/pt/jobs", {
      token: opUser.token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "OP" }),
      status: 403,
    });

    const general = await env.userWithToken({ account_type: "General", permissions: ["inspector"] });
    const created = await env.json("/api/pt/jobs", {
      token: general.token,
      method: "POST",
      json: form(customer.id, operator.id, { job_number: "BY-GENERAL" }),
    });
    assert.equal(created.message, "Job created");
    const patch = await env.json("/api/pt/jobs", {
      token: general.token,
      method: "PATCH",
      json: form(customer.id, operator.id, { id: created.id, job_number: "BY-GENERAL", district: "X" }),
      status: 403,
    });
    assert.equal(patch.detail, "You do not have permission to do that.");
    await env.json("/api/pt/jobs", {
      token: general.token,
      method: "POST",
      json: form(customer.id, operator.id, { id: created.id, job_number: "BY-GENERAL" }),
      status: 403,
    });
    await env.json(`/api/pt/jobs/${created.id}`, { token: general.token, method: "DELETE", status: 403 });
    const stored = await env.tenant.db.select().from(jobs).where(eq(jobs.id, created.id));
    assert.equal(stored[0].district, "Permian");
    await env.json("/api/pt/jobs", { status: 401 });
    await env.json(`/api/pt/jobs/${job.id}/report`, { status: 401 });
  }));

Deno.test("jobs - a session is bound to its tenant and another tenant's job ids are 404", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const job = await makeJob(env.tenant.db, { job_number: "ACME-1" });
    await env.addTenant("beta", "beta.test");
    await env.json("/api/pt/jobs", { token: tokenA, host: "beta.test", status: 401 });
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const b = { token: tokenB, host: "beta.test" };
    assert.equal((await env.json("/api/pt/jobs?rowsPerPage=-1", b)).total, 0);
    await env.json(`/api/pt/jobs/${job.id}`, { ...b, status: 404 });
    await env.json(`/api/pt/jobs/${job.id}/report`, { ...b, status: 404 });
    await env.json(`/api/pt/jobs/${job.id}`, { ...b, method: "DELETE", status: 404 });
    assert.equal((await env.json("/api/pt/jobs", { token: tokenA })).total, 1);
  }));

Deno.test("jobs - the download is an xlsx of every matching job in the list's order", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { customer, operator } = await partners(env);
    await makeJob(env.tenant.db, {
      job_number: "=HYPERLINK()",
      date: "2024-06-02",
      customer_company_id: customer.id,
      operator_company_id: operator.id,
      uv_recalibration_date: "2024-01-15",
      ut_recalibration_date: "2024-02-20",
      comments: "All good",
    });
    for (let i = 0; i < 30; i++) {
      await makeJob(env.tenant.db, {
        job_number: `D-${i}`,
        date: "2024-06-01",
        customer_company_id: customer.id,
      });
    }
    await makeJob(env.tenant.db, { job_number: "ELSEWHERE" });
    const res = await env.request(
      "/api/pt/jobs/download?search_customer_name=red river&rowsPerPage=10&page=2",
      { token },
    );
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get("content-type"),
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Jobs-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], [
      "Date",
      "Job Number",
      "Customer",
      "Operator",
      "District",
      "Inspector",
      "UV Serial",
      "UV Recal.",
      "Blacklight",
      "UT Serial",
      "UT Recal.",
      "Comments",
    ]);
    assert.equal(rows.length, 32, "every matching row, not one page");
    // Dates are date cells an accountant can sort and sum by, shown MM-DD-YYYY as in every download.
    const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
    assert.deepEqual(rows[1], [
      day("2024-06-02"),
      "'=HYPERLINK()",
      "Red River Energy",
      "Basin Operating",
      "Permian",
      "Dwayne Carter",
      "UV-1001",
      day("2024-01-15"),
      "1200",
      "UT-2002",
      day("2024-02-20"),
      "All good",
    ]);
    for (const col of [1, 8, 11]) assert.equal(wb.worksheets[0].getRow(2).getCell(col).numFmt, "mm-dd-yyyy");
    assert.ok(!rows.some((r) => r[1] === "ELSEWHERE"));
  }));

Deno.test("jobs - the report PDF carries every job field, the three companies and its inspections", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const customer = await makeCompany(env.tenant.db, {
      name: "Red River Energy",
      company_type: "customer_company",
      custom: { address_line_1: "100 Main St", address_line_2: "Midland, TX 79701" },
    });
    const operator = await makeCompany(env.tenant.db, {
      name: "Basin Ops",
      company_type: "operator_company",
    });
    const job = await makeJob(env.tenant.db, {
      job_number: "JR-42/7",
      date: "2024-03-05",
      customer_company_id: customer.id,
      operator_company_id: operator.id,
      district: "Delaware Basin",
      inspector: "Dana Scully",
      uv_serial_number: "UV-777",
      uv_recalibration_date: "2024-01-15",
      blacklight_reading: "1350",
      ut_serial_number: "UT-888",
      ut_recalibration_date: "2024-02-20",
      comments: "Wellhead 3 rigged down early",
      custom: { po_number: "PO-5511" },
    });
    const part = await makePart(env.tenant.db, { name: "Plug Valve 2in" });
    await makeInspection(env.tenant.db, {
      job_id: job.id,
      serial_number: "SN-FIRST",
      batch: "B-9",
      part_id: part.id,
      visual_pass: true,
      ut_1: 0.25,
      ut_2: 0.5,
      ut_3: 0.75,
      pressure: 15000,
      band_color: "Green",
      mpi_result: "Not Required",
      notes: "Looks fine",
    });
    for (let i = 0; i < 70; i++) {
      await makeInspection(env.tenant.db, {
        job_id: job.id,
        serial_number: `SN-${String(i).padStart(3, "0")}`,
      });
    }

    const res = await env.request(`/api/pt/jobs/${job.id}/report`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.equal(res.headers.get("content-disposition"), 'inline; filename="Job-JR-42_7.pdf"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    const text = pdfText(bytes);
    const lines = text.split("\n");
    for (
      const s of [
        "Job Report: JR-42/7",
        "Red River Energy",
        "100 Main St",
        "Midland, TX 79701",
        "Basin Ops",
        "Acme Inspections",
        "Job Number",
        "03-05-2024",
        "Delaware Basin",
        "Dana Scully",
        "UV-777",
        "01-15-2024",
        "1350",
        "UT-888",
        "02-20-2024",
        "Wellhead 3 rigged down early",
        "Po Number",
        "PO-5511",
        "Inspections (71)",
        "SN-FIRST",
        "B-9",
        "Plug Valve 2in",
        "Yes",
        "0.250",
        "0.500",
        "0.750",
        "15,000 psi",
        "Green",
        "Not Required",
        "Looks fine",
        "SN-069",
      ]
    ) assert.ok(lines.includes(s), `"${s}" in the report`);
    for (
      const label of ["UV Recalibration Date", "Blacklight Reading", "UT Recalibration Date", "Comments"]
    ) {
      assert.ok(lines.includes(label), label);
    }
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
    assert.ok(pages >= 2, "71 inspections take more than a page");
    const tablePages = lines.filter((l) => l === "Serial Number").length;
    // The table header on every page the table runs onto; the signature block may start one of its own.
    assert.ok(tablePages === pages || tablePages === pages - 1, `${tablePages} of ${pages}`);
    assert.equal(lines.filter((l) => l === "Job Report JR-42/7 (continued)").length, pages - 1);
    assert.ok(lines.includes("Inspector signature") && lines.includes("Dana Scully"));

    const empty = await makeJob(env.tenant.db);
    const none = await env.request(`/api/pt/jobs/${empty.id}/report`, { token });
    assert.ok(pdfText(new Uint8Array(await none.arrayBuffer())).includes("No Inspections Found"));
    await env.json("/api/pt/jobs/999999/report", { token, status: 404 });
  }));
