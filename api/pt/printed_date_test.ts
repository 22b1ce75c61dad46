import assert from "node:assert/strict";
import { makeCompany, makeInspection, makeJob } from "../../db/factories.ts";
import { withEnv } from "../../scripts/testing/harness.ts";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import { renderInspectionReport } from "./inspections/report.ts";
import { renderJobReport } from "./jobs/report.ts";

Deno.test("pt reports - the printed date is the company's today, not UTC's", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const company = await makeCompany(db, { name: "Acme Inspection" });
    const job = await makeJob(db);
    const inspection = await makeInspection(db, { job_id: job.id });
    const c = { name: company.name, custom: {} };
    // 03:00 UTC on March 5th is still March 4th in Chicago.
    const printedAt = new Date("2026-03-05T03:00:00Z");
    const inChicago = { printedAt, timeZone: "America/Chicago" };
    const parties = { inspectionCompany: c, customer: c, operator: c };
    const ref = { id: company.id, name: company.name };
    const named = { customer_company: ref, operator_company: ref, inspection_company: ref };
    const report = pdfText(
      await renderInspectionReport({ inspection, part: null, job, ...parties, ...inChicago }),
    );
    assert.ok(report.includes("Printed 03-04-2026"), report);
    const utc = pdfText(await renderInspectionReport({ inspection, part: null, job, ...parties, printedAt }));
    assert.ok(utc.includes("Printed 03-05-2026"));
    const jobReport = pdfText(
      await renderJobReport({
        job: { ...job, ...named, inspections: 0 },
        ...parties,
        inspections: [],
        ...inChicago,
      }),
    );
    assert.ok(jobReport.includes("Printed 03-04-2026"));
  }));
