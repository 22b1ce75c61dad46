import assert from "node:assert/strict";
import PDFKit from "pdfkit";
import { PDFDocument } from "pdf-lib";
import { eq } from "drizzle-orm";
import { companies } from "../../../db/schema/mod.ts";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import { storeFile } from "../../files/service.ts";
import { collectPdf, type PdfDoc, renderPdf } from "../../lib/pdf.ts";
import { MERGE_LIMITS, mergeTooSlow } from "../../lib/pdf_merge.ts";
import { loopGap, manyPagesPdf } from "../../lib/pdf_merge_fixture.ts";
import { ATTACHMENT_NOTICE } from "./report.ts";

/** A real PDF of `pages` pages, each saying which page of the certificate it is. */
const certificate = (pages: number) =>
  renderPdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.text(`Certificate page ${p}`);
    }
  });

/** A PDF that asks for a password to open. */
function encryptedPdf(): Promise<Uint8Array> {
  const doc = new PDFKit({ userPassword: "secret", ownerPassword: "owner" }) as unknown as PdfDoc;
  const bytes = collectPdf(doc);
  doc.text("Locked certificate");
  doc.end();
  return bytes;
}

async function attach(env: TestEnv, name: string, data: Uint8Array): Promise<number> {
  return await env.tenant.write((tx) => storeFile(tx, { name, content_type: "application/pdf", data }));
}

/** A job with named companies and a part, and one inspection on it. */
async function inspected(env: TestEnv, over: Parameters<typeof makeInspection>[1] = {}) {
  const db = env.tenant.db;
  const customer = await makeCompany(db, {
    name: "Red River Energy",
    custom: { address_line_1: "12 Main St", address_line_2: "Midland, TX" },
  });
  const operator = await makeCompany(db, { name: "Midland Operating", company_type: "operator_company" });
  const job = await makeJob(db, {
    job_number: "PT-24017",
    date: "2024-06-03",
    district: "Odessa",
    inspector: "Dwayne Carter",
    customer_company_id: customer.id,
    operator_company_id: operator.id,
  });
  const part = await makePart(db, {
    name: "Plug Valve 2in",
    description: "2in 1502 plug valve",
    manufacturer: "SPM",
  });
  const inspection = await makeInspection(db, {
    job_id: job.id,
    serial_number: "SN-4471",
    batch: "B-12",
    part_id: part.id,
    visual_pass: false,
    ut_1: 0.312,
    ut_2: 0.305,
    pressure: 15000,
    band_color: "Green",
    mpi_result: "Not Required",
    notes: "Minor pitting on the seat",
    ...over,
  });
  return { job, part, customer, operator, inspection };
}

const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();

async function report(env: TestEnv, id: number, token: string) {
  const res = await env.request(`/api/pt/inspections/${id}/report`, { token });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) assert.fail(`expected 200, got ${res.status}: ${new TextDecoder().decode(bytes)}`);
  return { res, bytes };
}

Deno.test("inspection report - one page with the inspection, its part and job; every field labelled", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { inspection } = await inspected(env);
    const { res, bytes } = await report(env, inspection.id, token);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.equal(res.headers.get("content-disposition"), 'inline; filename="Inspection-SN-4471.pdf"');
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    assert.equal(await pageCount(bytes), 1);
    const text = pdfText(bytes);
    for (
      const expected of [
        "Inspection Report: SN-4471",
        "Plug Valve 2in",
        "2in 1502 plug valve",
        "SPM",
        "PT-24017",
        "06-03-2024",
        "Odessa",
        "Dwayne Carter",
        "Red River Energy",
        "12 Main St",
        "Midland Operating",
        "Pass Visual?",
        "No",
        "0.312",
        "0.305",
        "15,000 psi",
        "Green",
        "Not Required",
        "Minor pitting on the seat",
        "Pressure Test PDF",
        "None",
        "Page 1 of 1",
        // No signature captured on a device: a block to sign by hand, with the job's inspector.
        "Inspector signature",
        "Date",
      ]
    ) assert.ok(text.includes(expected), `report shows ${expected}`);
    assert.ok(!text.includes("15000"), "thousands separated");
  }));

Deno.test("inspection report - the inspection company's logo heads it: logoSVG as vector, a PNG as an image", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const { inspection, job } = await inspected(env);
    const hasImage = (b: Uint8Array) => new TextDecoder("latin1").decode(b).includes("/Subtype /Image");
    assert.ok(!hasImage((await report(env, inspection.id, token)).bytes));
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    await env.tenant.db.update(companies).set({ settings: { logoSVG: `data:image/png;base64,${png}` } })
      .where(eq(companies.id, job.inspection_company_id));
    assert.ok(hasImage((await report(env, inspection.id, token)).bytes));
    await env.tenant.db.update(companies).set({
      settings: {
        logoSVG:
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 3"><rect width="9" height="3"/></svg>',
      },
    }).where(eq(companies.id, job.inspection_company_id));
    const svg = await report(env, inspection.id, token);
    assert.ok(!hasImage(svg.bytes) && pdfText(svg.bytes).includes("Inspection Report: SN-4471"));
  }));

Deno.test("inspection report - the pressure-test PDF's pages are appended after the report", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const fileId = await attach(env, "cert-77.pdf", await certificate(2));
    const { inspection } = await inspected(env, { pressure_test_file_id: fileId });
    const { bytes } = await report(env, inspection.id, token);
    assert.equal(await pageCount(bytes), 1 + 2);
    const text = pdfText(bytes);
    assert.ok(text.includes("SN-4471"));
    assert.ok(text.includes("Plug Valve 2in"));
    assert.ok(
      text.includes("cert-77.pdf (2 pages, appended after this report: the last 2 pages of this file)"),
    );
    // The whole file is numbered: the report's page counts the certificate's, whose pages say what they are.
    assert.ok(text.includes("Page 1 of 3"), text);
    assert.ok(text.includes("Page 2 of 3 - Pressure test PDF cert-77.pdf, page 1 of 2"));
    assert.ok(text.includes("Page 3 of 3 - Pressure test PDF cert-77.pdf, page 2 of 2"));
    const order = ["Inspection Report: SN-4471", "Certificate page 1", "Certificate page 2"]
      .map((t) => text.indexOf(t));
    assert.ok(order.every((at) => at >= 0), "report and both certificate pages present");
    assert.deepEqual([...order].sort((a, b) => a - b), order, "report first, then the certificate in order");
    assert.ok(!text.includes(ATTACHMENT_NOTICE));
  }));

Deno.test("inspection report - a corrupt or encrypted attachment still answers 200 with a notice page", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const corrupt = await attach(
      env,
      "broken.pdf",
      new TextEncoder().encode("%PDF-1.4\nthis is not a pdf\n"),
    );
    const { inspection: a } = await inspected(env, { pressure_test_file_id: corrupt });
    const broken = await report(env, a.id, token);
    assert.equal(await pageCount(broken.bytes), 2, "the report and the notice page");
    const text = pdfText(broken.bytes);
    assert.ok(text.includes(ATTACHMENT_NOTICE));
    assert.ok(text.includes("SN-4471"));

    const locked = await attach(env, "locked.pdf", await encryptedPdf());
    const { inspection: b } = await inspected(env, { pressure_test_file_id: locked, serial_number: "SN-9" });
    const enc = await report(env, b.id, token);
    assert.equal(await pageCount(enc.bytes), 2);
    assert.ok(pdfText(enc.bytes).includes(ATTACHMENT_NOTICE));
  }));

Deno.test("inspection report - 404 outside the scope: another job's customer, another tenant, no such id", () =>
  withEnv(async (env) => {
    const { inspection, customer } = await inspected(env);
    const mine = await env.userWithToken({ company_id: customer.id });
    await report(env, inspection.id, mine.token);

    const other = await makeCompany(env.tenant.db, { name: "Other Customer" });
    const stranger = await env.userWithToken({ company_id: other.id });
    await env.json(`/api/pt/inspections/${inspection.id}/report`, { token: stranger.token, status: 404 });

    const clerk = await env.userWithToken({ account_type: "Data-Entry", jobs: [] });
    await env.json(`/api/pt/inspections/${inspection.id}/report`, { token: clerk.token, status: 404 });

    await env.addTenant("beta", "beta.test");
    const beta = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    await env.json(`/api/pt/inspections/${inspection.id}/report`, {
      token: beta,
      host: "beta.test",
      status: 404,
    });
    const admin = await env.login();
    await env.json("/api/pt/inspections/999999/report", { token: admin, status: 404 });
    await env.json(`/api/pt/inspections/${inspection.id}/report`, { status: 401 });
  }));

Deno.test("inspection report - a hostile pressure-test PDF is read off the event loop; over the time limit, 422", () =>
  withEnv(async (env) => {
    const token = await env.login();
    // 30,000 blank pages, 1.8 MB: many seconds of pdf-lib work in one piece on whichever thread merges.
    const fileId = await attach(env, "huge-tree.pdf", manyPagesPdf(30_000));
    const { inspection } = await inspected(env, { pressure_test_file_id: fileId });
    const limit = MERGE_LIMITS.timeoutMs;
    MERGE_LIMITS.timeoutMs = 2000;
    try {
      const { result: res, gap } = await loopGap(() =>
        env.request(`/api/pt/inspections/${inspection.id}/report`, { token })
      );
      const body = await res.json();
      assert.deepEqual([res.status, body.detail], [422, mergeTooSlow(2000)]);
      assert.ok(gap < 1000, `the event loop stalled for ${Math.round(gap)} ms`);
    } finally {
      MERGE_LIMITS.timeoutMs = limit;
    }
    const plain = await inspected(env, { serial_number: "SN-5" });
    assert.equal(
      await pageCount((await report(env, plain.inspection.id, token)).bytes),
      1,
      "served as before",
    );
  }));
