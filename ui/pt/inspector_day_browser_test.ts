import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makeCompany, makeJob, makePart } from "../../db/factories.ts";

browserTest(
  "pressure testing - an inspector's day: from the job list to its inspections, then the data page",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const customer = await makeCompany(env.tenant.db, {
        name: "Bluestem Energy",
        company_type: "customer_company",
      });
      const job = await makeJob(env.tenant.db, { job_number: "PT-7001", customer_company_id: customer.id });
      await makeJob(env.tenant.db, { job_number: "PT-7002" });
      await makePart(env.tenant.db, { name: "2in Plug Valve" });
      await signIn(undefined, undefined, "/pt/jobs");

      // The job list: expand the job and follow its Inspection link.
      const jobs = page.getByRole("table", { name: "Jobs" });
      const jobRow = jobs.getByRole("row", { name: /PT-7001/ });
      await jobRow.getByRole("button", { name: "Expand row" }).click();
      await jobs.getByRole("link", { name: "Inspection" }).click();
      await page.waitForURL(`${base}/pt/inspection?job_id=${job.id}`);
      await hydrated();
      await page.getByText("Bluestem Energy").first().waitFor();

      // Enter one inspection.
      await page.getByRole("button", { name: "Enter new inspection" }).click();
      const dialog = page.getByRole("dialog", { name: "New Inspection" });
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("DAY-1");
      await dialog.getByRole("combobox", { name: "Part" }).fill("plug");
      await page.getByRole("option", { name: "2in Plug Valve" }).click();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection created").waitFor();
      await page.getByRole("table", { name: "Inspections" }).getByRole("row", { name: /DAY-1/ }).waitFor();

      // The Data menu entry: every job's inspections, searched by job number.
      await page.getByRole("navigation").getByRole("link", { name: "Data" }).click();
      await page.waitForURL(`${base}/pt/data`);
      await hydrated();
      const search = page.getByRole("searchbox", { name: "Job Number" }).or(
        page.getByRole("textbox", { name: "Job Number" }),
      );
      await search.fill("PT-7001");
      await search.press("Enter");
      const data = page.getByRole("table", { name: "Inspections" });
      await data.getByRole("row", { name: /DAY-1/ }).waitFor();
      await page.waitForFunction(() => location.search.includes("search_job_number=PT-7001"));
      assert.equal(await data.getByRole("row").count(), 2); // header + the one inspection

      // The job report opens as a PDF.
      const [status, type] = await page.evaluate(async (url) => {
        const res = await fetch(url);
        return [res.status, res.headers.get("content-type")];
      }, `/api/pt/jobs/${job.id}/report`);
      assert.deepEqual([status, type], [200, "application/pdf"]);
    }),
);
