import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeJob } from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });
const day = (i: number) => `2025-03-${String(i + 1).padStart(2, "0")}`;

Deno.test("jobs page - renders the first page newest first with the searches, New Job and report links", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Bluestem Energy" });
    const operator = await makeCompany(env.tenant.db, {
      name: "Redline Operating",
      company_type: "operator_company",
    });
    for (let i = 0; i < 12; i++) {
      await makeJob(env.tenant.db, {
        job_number: `JN-${String(i).padStart(2, "0")}`,
        date: day(i),
        customer_company_id: customer.id,
        operator_company_id: operator.id,
        district: "Permian",
      });
    }
    const rival = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    await makeJob(env.tenant.db, { job_number: "RIVAL-1", inspection_company_id: rival.id });
    const res = await env.request("/pt/jobs", cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1>Welcome, <!-- -->Administrator<\/h1>/);
    assert.match(html, /aria-label="Refresh"/);
    assert.match(html, /New Job/);
    for (const h of ["Date", "Job Number", "Customer", "Operator", "District", "Inspector", "Report"]) {
      assert.match(html, new RegExp(`>${h}<`));
    }
    for (const s of ["search_operator_name", "search_job_number", "search_customer_name"]) {
      assert.match(html, new RegExp(`name="${s}"`));
    }
    // Newest first, MM-DD-YYYY, 10 of 12 on the first page, only the user's company's jobs.
    assert.ok(html.indexOf("JN-11") < html.indexOf("JN-10"));
    assert.match(html, />03-12-2025</);
    assert.doesNotMatch(html, /2025-03-12</);
    assert.match(html, /JN-02/);
    assert.doesNotMatch(html, /JN-01/);
    assert.doesNotMatch(html, /RIVAL-1/);
    assert.match(html, /1-10 of 12/);
    assert.match(html, /Bluestem Energy/);
    assert.match(html, /Redline Operating/);
    assert.match(html, /aria-sort="descending"/);
    assert.match(html, /href="\/api\/pt\/jobs\/\d+\/report" target="_blank"/);
    assert.match(html, />Job Report PDF</);
    assert.match(html, /data-island="ui\/pt\/jobs\/islands\/JobsTable.tsx"/);
    assert.match(html, /href="\/pt\/jobs\?page=2&amp;rowsPerPage=10&amp;sortBy=date&amp;descending=true"/);
    // Jobs is the first entry of the Pressure Testing menu.
    const menu = html.slice(html.indexOf('class="drawer'));
    assert.ok(menu.indexOf('href="/pt/jobs"') >= 0);
    assert.ok(menu.indexOf('href="/pt/jobs"') < menu.indexOf('href="/pt/parts"'));
  }));

Deno.test("jobs page - the URL's searches, size and sort apply; bad values fall back to defaults", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const acme = await makeCompany(env.tenant.db, { name: "Acme Oil" });
    const zen = await makeCompany(env.tenant.db, { name: "Zen Gas" });
    const op = await makeCompany(env.tenant.db, { name: "Hawk Operating", company_type: "operator_company" });
    await makeJob(env.tenant.db, { job_number: "ALPHA-7", date: "2025-01-05", customer_company_id: acme.id });
    await makeJob(env.tenant.db, {
      job_number: "BRAVO-8",
      date: "2025-02-05",
      customer_company_id: zen.id,
      operator_company_id: op.id,
    });

    let html = await (await env.request("/pt/jobs?search_job_number=alpha&rowsPerPage=25", cookie(token)))
      .text();
    assert.match(html, /ALPHA-7/);
    assert.doesNotMatch(html, /BRAVO-8/);
    assert.match(html, /1-1 of 1/);
    html = await (await env.request("/pt/jobs?search_customer_name=zen", cookie(token))).text();
    assert.match(html, /BRAVO-8/);
    assert.doesNotMatch(html, /ALPHA-7/);
    html = await (await env.request("/pt/jobs?search_operator_name=hawk", cookie(token))).text();
    assert.match(html, /BRAVO-8/);
    assert.doesNotMatch(html, /ALPHA-7/);

    html = await (await env.request("/pt/jobs?sortBy=date&descending=false", cookie(token))).text();
    assert.ok(html.indexOf("ALPHA-7") < html.indexOf("BRAVO-8"));

    const res = await env.request(
      "/pt/jobs?page=abc&rowsPerPage=7&sortBy=nope&descending=maybe",
      cookie(token),
    );
    assert.equal(res.status, 200);
    html = await res.text();
    assert.match(html, /1-2 of 2/);
    assert.ok(html.indexOf("BRAVO-8") < html.indexOf("ALPHA-7"));
  }));

Deno.test("jobs page - with no jobs it shows 'No Jobs Found'", () =>
  withEnv(async (env) => {
    const res = await env.request("/pt/jobs", cookie(await env.login()));
    assert.equal(res.status, 200);
    assert.match(await res.text(), /No Jobs Found/);
  }));

Deno.test("jobs page - a customer user sees only their jobs, no Customer search and no New Job", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const other = await makeCompany(env.tenant.db, { name: "Other Customer" });
    await makeJob(env.tenant.db, { job_number: "MINE-1", customer_company_id: customer.id });
    await makeJob(env.tenant.db, { job_number: "THEIRS-1", customer_company_id: other.id });
    const { token } = await env.userWithToken({ company_id: customer.id, permissions: ["job-admin"] });
    let res = await env.request("/pt/jobs", cookie(token));
    assert.equal(res.status, 200);
    let html = await res.text();
    assert.match(html, /MINE-1/);
    assert.doesNotMatch(html, /THEIRS-1/);
    assert.match(html, /name="search_operator_name"/);
    assert.match(html, /name="search_job_number"/);
    assert.doesNotMatch(html, /name="search_customer_name"/);
    assert.doesNotMatch(html, /New Job/);
    assert.match(html, /&quot;can&quot;:\{&quot;create&quot;:false,&quot;edit&quot;:false,/);
    // A customer filter in the URL is not theirs to apply.
    res = await env.request("/pt/jobs?search_customer_name=nothing-matches", cookie(token));
    html = await res.text();
    assert.match(html, /MINE-1/);
  }));

Deno.test("jobs page - a Data-Entry user sees only their assigned jobs and no New Job", () =>
  withEnv(async (env) => {
    const mine = await makeJob(env.tenant.db, { job_number: "ASSIGNED-1" });
    await makeJob(env.tenant.db, { job_number: "UNASSIGNED-1" });
    const { token } = await env.userWithToken({ account_type: "Data-Entry", jobs: [mine.id] });
    const html = await (await env.request("/pt/jobs", cookie(token))).text();
    assert.match(html, /ASSIGNED-1/);
    assert.doesNotMatch(html, /UNASSIGNED-1/);
    assert.doesNotMatch(html, /New Job/);
    assert.match(html, /name="search_customer_name"/);
  }));
