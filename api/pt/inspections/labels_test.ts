import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { crop, rasterPage, readQr } from "../../../scripts/testing/qr_image.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import { LABEL_SHEETS } from "../../../lib/label_sheets.ts";
import { NO_SERIALS_MESSAGE } from "./service/labels.ts";

const PATH = "/api/pt/inspections/labels";

Deno.test("job labels - one thermal label per serial of the job, with its latest part, QR to the serial", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const job = await makeJob(db, { job_number: "PT-77" });
    const old = await makePart(db, { name: "Old Part" });
    const part = await makePart(db, { name: "Swivel 2in" });
    await makeInspection(db, {
      job_id: job.id,
      serial_number: "b-2",
      part_id: old.id,
      inspection_time: "2026-01-01T00:00:00.000Z",
    });
    await makeInspection(db, {
      job_id: job.id,
      serial_number: "B-2",
      part_id: part.id,
      inspection_time: "2026-02-01T00:00:00.000Z",
    });
    await makeInspection(db, { job_id: job.id, serial_number: "A-1" });
    await makeInspection(db, { job_id: job.id, serial_number: "" });
    await makeInspection(db, { serial_number: "OTHER-JOB" });
    const token = await env.login();
    const res = await env.request(`${PATH}?job_id=${job.id}&size=thermal-2x1`, { token });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition") ?? "", /filename="Job PT-77 QR labels.pdf"/);
    const pdf = new Uint8Array(await res.arrayBuffer());
    assert.equal((await PDFDocument.load(pdf)).getPageCount(), 2);
    const text = pdfText(pdf);
    assert.ok(text.includes("A-1") && text.includes("Swivel 2in") && !text.includes("Old Part"));
    assert.ok(!text.includes("OTHER-JOB"));
    const s = LABEL_SHEETS["thermal-2x1"];
    const page2 = crop(await rasterPage(pdf, 2), 200, 0, 0, s.label[0], s.label[1]);
    assert.match(readQr(page2), /^https:\/\/acme\.test(:\d+)?\/serials\/B-2$/);
  }));

Deno.test("job labels - a job without serials is 404 with why; a job out of the user's scope is not found", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const token = await env.login();
    const empty = await makeJob(db);
    const r = await env.json(`${PATH}?job_id=${empty.id}&size=avery-5160`, { token, status: 404 });
    assert.equal(r.detail, NO_SERIALS_MESSAGE);
    await env.json(`${PATH}?job_id=${empty.id}&size=letter`, { token, status: 422 });
    const theirs = await makeCompany(db, { company_type: "customer_company" });
    const job = await makeJob(db, { customer_company_id: theirs.id });
    await makeInspection(db, { job_id: job.id, serial_number: "S-1" });
    const other = await makeCompany(db, { company_type: "customer_company" });
    const { token: outsider } = await env.userWithToken({ company_id: other.id });
    await env.json(`${PATH}?job_id=${job.id}&size=avery-5160`, { token: outsider, status: 404 });
    const { token: customer } = await env.userWithToken({ company_id: theirs.id });
    assert.equal(
      (await env.request(`${PATH}?job_id=${job.id}&size=avery-5160`, { token: customer })).status,
      200,
    );
  }));
