import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import { withEnv } from "../../scripts/testing/harness.ts";
import { makeInspection, makeJob, makeLine, makeTicket } from "../../db/factories.ts";
import { files, inspections } from "../../db/schema/mod.ts";
import { eq } from "drizzle-orm";
import { pdfScript } from "./pdf_scripts.ts";
import { pdfScriptMessage, sha256Hex } from "../files/service.ts";
import { UPLOADED_FILE_CSP } from "../files/routes.ts";

/**
 * A one-page PDF written by pdf-lib (compressed object streams, as pdf-lib saves by default: a byte scan of
 * the file does not see the keys inside them), with `script` adding what would run when it is opened.
 */
async function scriptedPdf(script?: (doc: PDFDocument) => void): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText("certificate", { x: 20, y: 100, size: 12 });
  script?.(doc);
  return await doc.save({ useObjectStreams: true });
}

const jsAction = (doc: PDFDocument, code = "app.alert(1)") =>
  doc.context.obj({ Type: "Action", S: "JavaScript", JS: PDFString.of(code) });

const SCRIPTS: [string, (doc: PDFDocument) => void, string][] = [
  [
    "an /OpenAction running JavaScript",
    (d) => d.catalog.set(PDFName.of("OpenAction"), jsAction(d)),
    "/JavaScript",
  ],
  [
    "a /Names /JavaScript tree",
    (d) => {
      const tree = d.context.obj({ Names: [PDFString.of("init"), d.context.register(jsAction(d))] });
      d.catalog.set(PDFName.of("Names"), d.context.obj({ JavaScript: d.context.register(tree) }));
    },
    "/JavaScript",
  ],
  [
    "a page's /AA (on open)",
    (d) => d.getPage(0).node.set(PDFName.of("AA"), d.context.obj({ O: jsAction(d) })),
    "/JavaScript",
  ],
  [
    "a link annotation launching a program",
    (d) => {
      const annot = d.context.obj({
        Type: "Annot",
        Subtype: "Link",
        Rect: [0, 0, 100, 100],
        A: { S: "Launch", F: PDFString.of("calc.exe") },
      });
      d.getPage(0).node.set(PDFName.of("Annots"), d.context.obj([d.context.register(annot)]));
    },
    "/Launch",
  ],
  [
    "an XFA form",
    (d) => d.catalog.set(PDFName.of("AcroForm"), d.context.obj({ Fields: [], XFA: PDFString.of("<xdp/>") })),
    "/XFA",
  ],
];

Deno.test("pdfScript - finds JavaScript, launch actions and XFA inside compressed object streams", async () => {
  assert.equal(await pdfScript(await scriptedPdf()), undefined);
  for (const [label, script, found] of SCRIPTS) {
    const bytes = await scriptedPdf(script);
    // Not in the bytes as written: only a walk of the parsed objects finds it.
    assert.ok(!new TextDecoder("latin1").decode(bytes).includes(found), `${label}: visible in the bytes`);
    assert.equal(await pdfScript(bytes), found, label);
  }
});

Deno.test("pdfScript - a hand-written file with #-escaped names; an unreadable file is scanned as bytes", async () => {
  const escaped = new TextEncoder().encode(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction 4 0 R>>endobj\n" +
      "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n" +
      "4 0 obj<</S/Java#53cript/J#53(app.alert(1))>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
  assert.equal(await pdfScript(escaped), "/JavaScript");
  const broken = new TextEncoder().encode("%PDF-1.4\n garbage <</J#53 (x)>> not a pdf");
  assert.equal(await pdfScript(broken), "/JS");
  assert.equal(await pdfScript(new TextEncoder().encode("%PDF-1.4\n% nothing\n%%EOF\n")), undefined);
});

const dataUrl = (bytes: Uint8Array) => `data:application/pdf;base64,${Buffer.from(bytes).toString("base64")}`;

Deno.test("uploads - a PDF with scripts is refused (422) as a line attachment and a batch certificate; nothing is stored", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const bad = await scriptedPdf(SCRIPTS[0][1]);
    const ticket = await makeTicket(env.tenant.db);
    const line = await makeLine(env.tenant.db, { ticket_id: ticket.id });
    const form = new FormData();
    form.set("file", new File([bad as BlobPart], "cert.pdf", { type: "application/pdf" }));
    const res = await env.app.request(`http://${env.host}/api/sales/sales/${line.id}/attachment`, {
      method: "POST",
      headers: { host: env.host, authorization: `Bearer ${token}` },
      body: form,
    });
    const body = await res.json();
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.deepEqual(body.errors, [{ path: "file", message: pdfScriptMessage("/JavaScript") }]);

    const inspector = (await env.userWithToken({ permissions: ["inspector"], company_id: 1 })).token;
    const job = await makeJob(env.tenant.db);
    const batch = await env.json("/api/pt/inspections/batch", {
      token: inspector,
      method: "POST",
      json: {
        job_id: job.id,
        date: "2026-03-01",
        serial_numbers: ["SN-1"],
        imageFiles: { pressure_test: { name: "pt.pdf", url: dataUrl(await scriptedPdf(SCRIPTS[3][1])) } },
      },
      status: 422,
    });
    assert.equal(batch.errors[0].message, pdfScriptMessage("/Launch"));
    // A multipart file's name is checked by the upload itself (a JSON body's by the walk of every field).
    const named = new FormData();
    named.set(
      "file",
      new File([await scriptedPdf() as BlobPart], "cert\u202Efdp.exe", { type: "application/pdf" }),
    );
    const spoofed = await env.app.request(`http://${env.host}/api/sales/sales/${line.id}/attachment`, {
      method: "POST",
      headers: { host: env.host, authorization: `Bearer ${token}` },
      body: named,
    });
    assert.equal(spoofed.status, 422);
    assert.deepEqual((await spoofed.json()).errors, [{
      path: "file",
      message: "File name: Direction-changing character U+202E is not allowed",
    }]);
    assert.equal((await env.tenant.db.select().from(files).all()).length, 0);
    assert.equal((await env.tenant.db.select().from(inspections).all()).length, 0);
  }));

Deno.test("serving - an uploaded PDF is a sandboxed download; a report appending an old scripted file drops its actions", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const job = await makeJob(env.tenant.db);
    const inspector = (await env.userWithToken({ permissions: ["inspector"], company_id: 1 })).token;
    await env.json("/api/pt/inspections/batch", {
      token: inspector,
      method: "POST",
      json: {
        job_id: job.id,
        date: "2026-03-01",
        serial_numbers: ["SN-1"],
        imageFiles: { pressure_test: { name: "pt.pdf", url: dataUrl(await scriptedPdf()) } },
      },
    });
    const [row] = await env.tenant.db.select().from(inspections).all();
    const res = await env.request(`/api/files/${row.pressure_test_file_id}`, { token });
    await res.body?.cancel();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-disposition"), 'attachment; filename="pt.pdf"');
    assert.equal(res.headers.get("content-security-policy"), UPLOADED_FILE_CSP);

    // A file stored before uploads were checked: its page and link actions must not reach the report.
    const old = await scriptedPdf((d) => {
      SCRIPTS[2][1](d);
      SCRIPTS[3][1](d);
    });
    const [file] = await env.tenant.db.insert(files).values({
      sha256: await sha256Hex(old),
      name: "old.pdf",
      content_type: "application/pdf",
      size: old.byteLength,
      data: Buffer.from(old),
    }).returning();
    const inspection = await makeInspection(env.tenant.db, {
      job_id: job.id,
      pressure_test_file_id: file.id,
    });
    await env.tenant.db.update(inspections).set({ pressure_test_file_id: file.id })
      .where(eq(inspections.id, inspection.id));
    const report = await env.request(`/api/pt/inspections/${inspection.id}/report`, { token });
    assert.equal(report.status, 200);
    const merged = new Uint8Array(await report.arrayBuffer());
    assert.equal((await PDFDocument.load(merged)).getPageCount(), 2, "the report page and the certificate's");
    assert.equal(await pdfScript(merged), undefined);
  }));
