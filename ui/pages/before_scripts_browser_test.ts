import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makeInspection, makeJob } from "../../db/factories.ts";

/**
 * On the slow link of issue 32 a field page shows its rows well before its scripts have come (decision 050):
 * what a field user does first on a list (search, sort, page on) must work from the HTML alone.
 */
browserTest(
  "pages before their scripts - on the jobs list and a job's inspections, search, sort and paging work with JavaScript off",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const jobs = [];
      for (let i = 1; i <= 12; i++) {
        jobs.push(await makeJob(env.tenant.db, { job_number: `FIELD-${100 + i}` }));
      }
      const job = jobs[0];
      for (let i = 1; i <= 7; i++) {
        await makeInspection(env.tenant.db, { job_id: job.id, serial_number: `SN-${i}`, batch: `B${i % 2}` });
      }
      await signIn(undefined, undefined, "/pt/jobs");
      const noScripts = await page.context().browser()!.newContext({
        javaScriptEnabled: false,
        viewport: { width: 390, height: 844 },
      });
      await noScripts.addCookies(await page.context().cookies());
      const p = await noScripts.newPage();
      try {
        await p.goto(`${base}/pt/jobs`);
        const jobsTable = p.getByRole("table", { name: "Jobs" });
        // Paging: the pager is a link.
        assert.equal(await jobsTable.getByRole("row").filter({ hasText: "FIELD-" }).count(), 10);
        await p.getByRole("link", { name: "Next page" }).click();
        await p.waitForURL((u) => u.searchParams.get("page") === "2");
        assert.equal(await jobsTable.getByRole("row").filter({ hasText: "FIELD-" }).count(), 2);
        // Searching: a GET form, Enter submits it.
        await p.getByRole("searchbox", { name: "Job Number" }).fill("FIELD-107");
        await p.keyboard.press("Enter");
        await p.waitForURL((u) => u.searchParams.get("search_job_number") === "FIELD-107");
        assert.deepEqual(
          await jobsTable.getByRole("row").filter({ hasText: "FIELD-" }).allInnerTexts().then((t) =>
            t.map((r) => /FIELD-\d+/.exec(r)?.[0])
          ),
          ["FIELD-107"],
        );

        // A job's inspections: sorting is a link, the serial search a GET form.
        await p.goto(`${base}/pt/inspection?job_id=${job.id}`);
        const table = p.getByRole("table", { name: "Inspections" });
        await table.getByRole("link", { name: "Serial Number" }).click();
        await p.waitForURL((u) => u.searchParams.get("sortBy") === "serial_number");
        assert.equal(await table.getByRole("row").nth(1).getByText("SN-1").count(), 1);
        await p.getByRole("searchbox", { name: "Serial Number" }).fill("SN-6");
        await p.keyboard.press("Enter");
        await p.waitForURL((u) => u.searchParams.get("search_serial_number") === "SN-6");
        assert.equal(await table.getByRole("row").filter({ hasText: "SN-" }).count(), 1);
        assert.equal(new URL(p.url()).searchParams.get("job_id"), String(job.id), "still the same job");
      } finally {
        await noScripts.close();
      }
    }),
);
