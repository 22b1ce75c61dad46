import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { ADMIN, type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob } from "../../db/factories.ts";
import { deflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";
import { MAX_PDF_STRUCTURE_MB, PDF_TOO_COMPLEX, pdfUpload, storeFile } from "./service.ts";
import { AppError } from "../../lib/errors.ts";

const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** A job with one batch whose PDF is `name`; answers the job and the file's path. */
async function jobWithPdf(env: TestEnv, name = "pressure test.pdf") {
  const job = await makeJob(env.tenant.db);
  const token = await env.login();
  await env.json("/api/pt/inspections/batch", {
    token,
    method: "POST",
    json: {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: ["F1"],
      imageFiles: {
        pressure_test: { name, url: `data:application/pdf;base64,${Buffer.from(PDF).toString("base64")}` },
      },
    },
  });
  const list = await env.json(`/api/pt/inspections?job_id=${job.id}`, { token });
  return { job, path: list.results[0].custom.pressure_test_pdf as string };
}

Deno.test("files - the PDF comes back, inline, to the inspection company and to the job's customer", () =>
  withEnv(async (env) => {
    const { job, path } = await jobWithPdf(env);
    assert.match(path, /^\/api\/files\/\d+$/);
    const customer = (await env.userWithToken({ company_id: job.customer_company_id })).token;
    const operator = (await env.userWithToken({ company_id: job.operator_company_id })).token;
    for (const token of [await env.login(), customer, operator]) {
      const res = await env.request(path, { token });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(res.headers.get("content-disposition"), 'attachment; filename="pressure test.pdf"');
      assert.equal(res.headers.get("cache-control"), "private, max-age=3600");
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), PDF);
    }
  }));

Deno.test("files - 404 for another job's customer, another tenant, an unreferenced file; 401 signed out", () =>
  withEnv(async (env) => {
    const { path } = await jobWithPdf(env);
    const otherJob = await makeJob(env.tenant.db);
    await makeInspection(env.tenant.db, { job_id: otherJob.id });
    const stranger = (await env.userWithToken({ company_id: otherJob.customer_company_id })).token;
    const missing = await env.json(path, { token: stranger, status: 404 });
    assert.equal(missing.detail, "File not found.");
    const secondInspectionCo = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const rival = (await env.userWithToken({ company_id: secondInspectionCo.id })).token;
    await env.json(path, { token: rival, status: 404 });
    const dataEntry = (await env.userWithToken({ account_type: "Data-Entry", jobs: [otherJob.id] })).token;
    await env.json(path, { token: dataEntry, status: 404 });
    await env.json(path, { status: 401 });

    await env.addTenant("beta", "beta.test");
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const inB = await env.json(path, { token: tokenB, host: "beta.test", status: 404 });
    assert.equal(inB.detail, "File not found.");
    await env.json(path, { token: tokenB, status: 401 });

    const orphan = await env.tenant.write((tx) =>
      storeFile(tx, { name: "orphan.pdf", content_type: "application/pdf", data: new Uint8Array([1, 2, 3]) })
    );
    await env.json(`/api/files/${orphan}`, { token: await env.login(), status: 404 });
    await env.json("/api/files/999999", { token: await env.login(), status: 404 });
  }));

Deno.test("files - storeFile keeps one row per content and names are made header-safe", () =>
  withEnv(async (env) => {
    const data = new TextEncoder().encode("%PDF-1.4 same");
    const [a, b] = await env.tenant.write(async (tx) => [
      await storeFile(tx, { name: "a.pdf", content_type: "application/pdf", data }),
      await storeFile(tx, { name: "b.pdf", content_type: "application/pdf", data: data.slice() }),
    ]);
    assert.equal(a, b);
    const { path } = await jobWithPdf(env, 'Prüfung "1".pdf');
    const res = await env.request(path, { token: await env.login() });
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="Pr_fung _1_.pdf"; filename*=UTF-8''${encodeURIComponent('Prüfung "1".pdf')}`,
    );
  }));

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const ZEROS = new Uint8Array((MAX_PDF_STRUCTURE_MB + 36) * 1024 * 1024);

/** A PDF whose object stream unpacks to 100 MB of zeros (deflated `layers` times), in ~100 KB. */
function pdfBomb(layers: number, length: "direct" | "indirect" = "direct"): Uint8Array {
  let body: Uint8Array = ZEROS;
  for (let k = 0; k < layers; k++) body = new Uint8Array(deflateSync(body));
  const filters = Array(layers).fill("/FlateDecode").join(" ");
  const len = length === "direct" ? String(body.length) : "3 0 R";
  const head =
    `%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter [${filters}] /Length ${len} >>\nstream\n`;
  const tail = "\nendstream\nendobj\ntrailer\n<< /Root 2 0 R >>\n%%EOF\n";
  return new Uint8Array([...latin1(head), ...body, ...latin1(tail)]);
}

const upload = (data: Uint8Array) =>
  pdfUpload(new File([data as BlobPart], "cert.pdf"), 20, "file", "The file must be a PDF");

Deno.test("files - a PDF whose object streams unpack past the limit is refused (413), one or more filters deep", async () => {
  for (const bomb of [pdfBomb(1), pdfBomb(2), pdfBomb(1, "indirect")]) {
    assert.ok(bomb.length < 1024 * 1024, `small on the wire: ${bomb.length}`);
    await assert.rejects(
      upload(bomb),
      (e) => e instanceof AppError && e.status === 413 && e.message === PDF_TOO_COMPLEX,
    );
  }
});

Deno.test("files - ordinary PDFs pass the structure check: object streams, many pages, plain text", async () => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 200; i++) doc.addPage().drawText(`Certificate page ${i}`);
  const modern = await doc.save({ useObjectStreams: true });
  assert.match(new TextDecoder("latin1").decode(modern), /\/Type \/ObjStm/, "the fixture has object streams");
  assert.equal((await upload(modern)).data.length, modern.length);
  assert.equal((await upload(PDF)).data.length, PDF.length);
});

Deno.test("files - a PDF bomb in the pressure-test upload answers 413 with the sentence", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const url = `data:application/pdf;base64,${Buffer.from(pdfBomb(2)).toString("base64")}`;
    const res = await env.json("/api/pt/inspections/batch", {
      token: await env.login(),
      method: "POST",
      status: 413,
      json: {
        job_id: job.id,
        date: "2024-06-01",
        serial_numbers: ["F1"],
        imageFiles: { pressure_test: { name: "b.pdf", url } },
      },
    });
    assert.equal(res.detail, PDF_TOO_COMPLEX);
  }));
