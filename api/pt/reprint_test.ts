/**
 * What people sent or signed never changes: the PT reports are drawn again on every request (nothing keeps
 * their bytes), so the drawing of a given job and inspection must stay the same, byte for byte, across
 * changes of the code that draws them. The digests below are of the reports as printed before the job block
 * was shared (issue 34, decision 061); a change that moves a label or a field of an issued report fails here. A deliberate
 * change of a report's look needs a versioned layout, so that reports printed before keep theirs.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import { renderInspectionReport } from "./inspections/report.ts";
import { renderJobReport } from "./jobs/report.ts";
import type { Inspection } from "../../db/schema/mod.ts";
import type { JobRow } from "./jobs/schemas.ts";

const company = (name: string) => ({
  name,
  custom: { address_line_1: `1 ${name} Rd`, address_line_2: "Midland TX" },
});
const parties = {
  inspectionCompany: company("Acme Inspection"),
  customer: company("Permian Oil"),
  operator: company("Basin Operating"),
  printedAt: new Date("2026-03-05T15:00:00Z"),
  timeZone: "America/Chicago",
};
const ref = (id: number, name: string) => ({ id, name });
const job: JobRow = {
  id: 7,
  date: "2026-02-27",
  job_number: "J-1042",
  district: "Permian",
  inspector: "Dana Reyes",
  uv_serial_number: "UV-33",
  uv_recalibration_date: "2026-01-15",
  blacklight_reading: "1200",
  ut_serial_number: "UT-9",
  ut_recalibration_date: "2026-01-20",
  comments: "Rig 12, north pad",
  custom: { rig_number: "12", night_shift: true },
  inspection_company_id: 1,
  customer_company_id: 2,
  operator_company_id: 3,
  inspection_company: ref(1, "Acme Inspection"),
  customer_company: ref(2, "Permian Oil"),
  operator_company: ref(3, "Basin Operating"),
  inspections: 1,
  created_at: "2026-02-27T12:00:00Z",
  updated_at: "2026-02-27T12:00:00Z",
  version: 1,
};
const inspection: Inspection = {
  id: 31,
  job_id: 7,
  inspection_company_id: 1,
  customer_company_id: 2,
  operator_company_id: 3,
  date: "2026-02-28",
  serial_number: "SN-5521",
  batch: "B-4",
  part_id: null,
  visual_pass: true,
  ut_1: 0.5,
  ut_2: 0.52,
  ut_3: 0.49,
  pressure: 15000,
  band_color: null,
  mpi_result: null,
  notes: "Threads cleaned",
  pressure_test_file_id: null,
  custom: { coating: "Epoxy" },
  inspection_time: "2026-02-28T10:00:00.000Z",
  updated_at: "2026-02-28T10:00:00Z",
  version: 1,
};

const CHANGED =
  "a reprint would differ from the report as sent: keep its drawing, or version the layout so " +
  "reports issued before keep theirs (decision 061)";

/** Content streams as written, so the digest does not depend on the runtime's zlib. */
const PLAIN = { compress: false };

/** The bytes' digest, the creation time (pdfkit writes the clock's) and the file id made from it left out. */
const digest = (bytes: Uint8Array) =>
  createHash("sha256").update(
    new TextDecoder("latin1").decode(bytes).replace(/\(D:\d{14}Z\)/g, "(D:)").replace(
      /\/ID \[<\w+> <\w+>\]/,
      "/ID []",
    ),
    "latin1",
  ).digest("hex");

Deno.test("pt reports - a reprint of a job's inspection report is the same document, byte for byte", async () => {
  const bytes = await renderInspectionReport(
    { inspection, part: null, job: job as never, ...parties },
    { kind: "none" },
    PLAIN,
  );
  const text = pdfText(bytes);
  assert.ok(text.includes("Job Date") && text.includes("02-27-2026"), text);
  assert.equal(digest(bytes), "4dd27c244f03e01badc7ad0de00e3c5675f201165625099b127d2bf3990ab8ee", CHANGED);
});

Deno.test("pt reports - a reprint of a job report is the same document, byte for byte", async () => {
  const bytes = await renderJobReport({
    job,
    ...parties,
    inspections: [{ ...inspection, part: "Plug valve" }],
  }, PLAIN);
  const text = pdfText(bytes);
  assert.ok(text.includes("Date") && !text.includes("Job Date"), text);
  assert.equal(digest(bytes), "f9d87f02d4b1fea11e6d3dca1766c169563c8d4660fbfeba4b9f5630d9e6e37b", CHANGED);
});
