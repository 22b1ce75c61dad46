import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });

const PDF =
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
  `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
const pdfUrl = `data:application/pdf;base64,${Buffer.from(PDF).toString("base64")}`;

/** The `<tr>` whose cells include `text`. */
function rowOf(html: string, text: string): string {
  const at = html.indexOf(`>${text}<`);
  assert.ok(at > 0, `no row with ${text}`);
  return html.slice(html.lastIndexOf("<tr", at), html.indexOf("</tr>", at));
}

Deno.test("inspection page - without a job, or with a job out of scope, it sends the user to the jobs page", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const rival = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const theirs = await makeJob(env.tenant.db, { inspection_company_id: rival.id });
    for (
      const path of ["/pt/inspection", "/pt/inspection?job_id=abc", `/pt/inspection?job_id=${theirs.id}`]
    ) {
      const res = await env.request(path, cookie(token));
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get("location"), "/pt/jobs", path);
    }
  }));

Deno.test("inspection page - the job's newest 5 inspections, its header, and the inspector's buttons", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Pioneer Natural" });
    const operator = await makeCompany(env.tenant.db, {
      name: "Basin Wells",
      company_type: "operator_company",
    });
    const job = await makeJob(env.tenant.db, {
      job_number: "J-7781",
      date: "2024-06-03",
      customer_company_id: customer.id,
      operator_company_id: operator.id,
    });
    const part = await makePart(env.tenant.db, { name: "2in Plug Valve", description: "1502 union" });
    for (let i = 1; i <= 7; i++) {
      await makeInspection(env.tenant.db, {
        job_id: job.id,
        serial_number: `SN-${i}`,
        inspection_time: `2024-06-03T10:0${i}:00.000Z`,
        part_id: i === 7 ? part.id : null,
        visual_pass: i === 7 ? true : i === 6 ? false : null,
        pressure: i === 7 ? 15000 : null,
        band_color: i === 7 ? "Green" : null,
      });
    }
    await makeInspection(env.tenant.db, { serial_number: "SN-OTHER-JOB" });
    const res = await env.request(`/pt/inspection?job_id=${job.id}`, cookie(await env.login()));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Welcome, /);
    assert.match(html, /aria-label="Refresh"/);
    assert.match(html, /J-7781/);
    assert.match(html, /06-03-2024/);
    assert.match(html, /Pioneer Natural/);
    assert.match(html, /Basin Wells/);
    assert.match(html, /Enter new inspection/);
    assert.match(html, /Enter new batch/);
    for (
      const h of [
        "Date",
        "Serial Number",
        "Batch",
        "Part Name",
        "Part Desc.",
        "PT",
        "Pass Visual?",
        "UT 1",
        "UT 2",
      ]
        .concat(["UT 3", "Pressure", "Band Color", "MPI Result", "Notes", "Operator", "Customer", "Report"])
    ) assert.match(html, new RegExp(`>${h.replace(/[.?]/g, "\\$&")}<`), h);
    // Newest entered first, five rows.
    assert.ok(html.indexOf(">SN-7<") < html.indexOf(">SN-3<"));
    assert.doesNotMatch(html, />SN-2</);
    assert.doesNotMatch(html, /SN-OTHER-JOB/);
    assert.match(html, /1-5 of 7/);
    const seven = rowOf(html, "SN-7");
    assert.match(seven, />Yes</);
    assert.match(seven, />2in Plug Valve</);
    assert.match(seven, />1502 union</);
    assert.match(seven, />15,000 psi</);
    assert.match(seven, /Green/);
    assert.match(seven, new RegExp(`href="/api/pt/inspections/\\d+/report"[^>]*target="_blank"`));
    assert.match(rowOf(html, "SN-6"), />No</);
    assert.doesNotMatch(rowOf(html, "SN-5"), />(Yes|No)</);
    // Without a pressure-test PDF the PT link is disabled: no href.
    assert.match(seven, /<a class="link-disabled" role="link" aria-disabled="true">PDF<\/a>/);
    assert.match(html, /data-island="ui\/pt\/inspections\/islands\/InspectionsTable.tsx"/);
    // Paging keeps the job.
    assert.match(
      html,
      new RegExp(`href="/pt/inspection\\?page=2&amp;rowsPerPage=5&amp;[^"]*job_id=${job.id}`),
    );
    // The drawer offers the data page.
    assert.match(html, /href="\/pt\/data"/);
  }));

Deno.test("inspection page - the PT link opens the batch's PDF; searches and size come from the URL", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    await env.json("/api/pt/inspections/batch", {
      token,
      method: "POST",
      json: {
        job_id: job.id,
        date: "2024-06-01",
        serial_numbers: "PT-1,PT-2",
        batch: "B-9",
        imageFiles: { pressure_test: { name: "test.pdf", url: pdfUrl } },
      },
    });
    await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "NOPDF-1", batch: "B-1" });
    let html = await (await env.request(`/pt/inspection?job_id=${job.id}&search_batch=b-9`, cookie(token)))
      .text();
    const row = rowOf(html, "PT-1");
    assert.match(row, /<a href="\/api\/files\/\d+" target="_blank" rel="noopener">PDF<\/a>/);
    assert.doesNotMatch(html, /NOPDF-1/);
    assert.match(html, /1-2 of 2/);

    html = await (await env.request(`/pt/inspection?job_id=${job.id}&rowsPerPage=7&page=x`, cookie(token)))
      .text();
    assert.match(html, /1-3 of 3/);
    assert.match(html, /NOPDF-1/);
  }));

Deno.test("inspection page - a General user has no enter buttons", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    await makeInspection(env.tenant.db, { job_id: job.id });
    const { token } = await env.userWithToken({ company_id: 1, permissions: [] });
    const html = await (await env.request(`/pt/inspection?job_id=${job.id}`, cookie(token))).text();
    assert.doesNotMatch(html, /Enter new inspection/);
    assert.doesNotMatch(html, /Enter new batch/);
  }));

Deno.test("data page - a customer's user sees only their company's inspections and no Customer search", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Customer Co" });
    const mine = await makeJob(env.tenant.db, {
      customer_company_id: customer.id,
      job_number: "J-MINE",
      date: "2024-01-15",
    });
    await makeInspection(env.tenant.db, { job_id: mine.id, serial_number: "MINE-1" });
    await makeInspection(env.tenant.db, { serial_number: "THEIRS-1" });
    const { token } = await env.userWithToken({
      company_id: customer.id,
      permissions: ["inspector", "job-admin"],
    });
    const res = await env.request("/pt/data?search_customer_name=nobody&job_id=999", cookie(token));
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, />MINE-1</);
    assert.doesNotMatch(html, /THEIRS-1/);
    assert.match(html, /1-1 of 1/);
    for (const label of ["Serial Number", "Batch", "Operator", "Job Number", "Job Date"]) {
      assert.match(html, new RegExp(`<label[^>]*>${label}</label>`), label);
    }
    assert.doesNotMatch(html, /name="search_customer_name"/);
    assert.match(html, /Download/);
    assert.doesNotMatch(html, /Enter new/);
    // The data page is the logo and the table: no greeting (its heading is for screen readers).
    assert.doesNotMatch(html, /Welcome, /);
    assert.match(html, /<h1 class="sr-only">Inspection Data<\/h1>/);

    // Inspection-company staff get the Customer search; the job date filters exactly.
    const staff = await env.login();
    let all = await (await env.request("/pt/data", cookie(staff))).text();
    assert.match(all, /name="search_customer_name"/);
    assert.match(all, /1-2 of 2/);
    all = await (await env.request("/pt/data?job_date=2024-01-15", cookie(staff))).text();
    assert.match(all, />MINE-1</);
    assert.doesNotMatch(all, /THEIRS-1/);
    all = await (await env.request(
      "/pt/data?search_job_number=j-mi&search_customer_name=customer",
      cookie(staff),
    ))
      .text();
    assert.match(all, />MINE-1</);
    assert.doesNotMatch(all, /THEIRS-1/);
  }));

Deno.test("inspection page - with no inspections it shows 'No Inspections Found'", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const html = await (await env.request(`/pt/inspection?job_id=${job.id}`, cookie(await env.login())))
      .text();
    assert.match(html, /No Inspections Found/);
  }));
