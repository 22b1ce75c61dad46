import { companies, type Job } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { inJson } from "../../../../db/in_json.ts";
import { pdfLogo } from "../../../lib/pdf_logo.ts";

type Party = { name: string; custom: Record<string, unknown> };

/**
 * A job's three companies as its reports print them (the job and inspection reports), and the inspection
 * company's logo (decision 044): one read of the three.
 */
export async function jobParties(ctx: Ctx, job: Job) {
  const ids = [job.inspection_company_id, job.customer_company_id, job.operator_company_id];
  const found = await ctx.db.select({
    id: companies.id,
    name: companies.name,
    custom: companies.custom,
    settings: companies.settings,
  }).from(companies).where(inJson(companies.id, ids));
  const company = (cid: number | null): Party => found.find((c) => c.id === cid) ?? { name: "", custom: {} };
  return {
    inspectionCompany: company(job.inspection_company_id),
    customer: company(job.customer_company_id),
    operator: company(job.operator_company_id),
    logo: pdfLogo(found.find((c) => c.id === job.inspection_company_id)?.settings),
  };
}
