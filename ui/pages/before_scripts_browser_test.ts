import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import type { Page } from "playwright-core";
import { makeInspection, makeJob } from "../../db/factories.ts";
import { heldLine, logOf } from "../../api/sales/lines/checkin_fixtures.ts";

/** A phone (390x844) with JavaScript off, signed in as `page` is: the page as the slow link first shows it. */
async function withoutScripts(page: Page, run: (p: Page) => Promise<void>) {
  const noScripts = await page.context().browser()!.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  try {
    await noScripts.addCookies(await page.context().cookies());
    await run(await noScripts.newPage());
  } finally {
    await noScripts.close();
  }
}

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
        hasTouch: true,
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

        // The job number is a link to the job's inspections (decision 056).
        await p.goto(`${base}/pt/jobs?search_job_number=FIELD-101`);
        await jobsTable.getByRole("link", { name: "FIELD-101" }).tap();
        await p.waitForURL((u) =>
          u.pathname === "/pt/inspection" && u.searchParams.get("job_id") === String(job.id)
        );
        // The job's own inspections (the first page of them), under its header.
        await p.locator(".job-header").getByText("FIELD-101").waitFor();
        assert.ok(await table.getByRole("row").filter({ hasText: "SN-" }).count() > 0);
      } finally {
        await noScripts.close();
      }
    }),
);

browserTest(
  "pages before their scripts - a ticket's check-in works as a form: a refusal at its line keeps the values, then it checks in",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const a = await heldLine(env, { quantity: 2, row: { serial_number: "HOSE-7" } });
      const b = await heldLine(env, {
        quantity: 1,
        row: { serial_number: "PUMP-8" },
        line: { ticket_id: a.ticketId },
      });
      await signIn(undefined, undefined, `/sales/tickets/${a.ticketId}`);
      await withoutScripts(page, async (p) => {
        await p.goto(`${base}/sales/tickets/${a.ticketId}`);
        const toolbar = p.getByRole("toolbar", { name: "Ticket actions" });
        await toolbar.getByRole("button", { name: "Check-In", exact: true }).tap();
        await p.waitForURL((u) => u.searchParams.get("mode") === "checkin");
        const qtyIn = p.getByRole("textbox", { name: "Quantity in HOSE-7" });
        // Refused (not a whole number): nothing sent, the message at its line, every value as typed.
        await p.getByRole("checkbox", { name: "Select HOSE-7" }).check();
        await qtyIn.fill("1.5");
        await p.getByRole("textbox", { name: "Quantity sold PUMP-8" }).fill("1");
        await toolbar.getByRole("button", { name: "Submit Check-In" }).tap();
        await p.waitForURL((u) => u.searchParams.get("mode") === "checkin");
        const row = p.getByRole("row").filter({ has: qtyIn });
        assert.equal(await row.getByRole("alert").innerText(), "Must be a whole number");
        await p.getByRole("alert").filter({ hasText: "Nothing was checked in: a line needs a change." })
          .waitFor();
        assert.equal(await qtyIn.inputValue(), "1.5");
        assert.equal(await p.getByRole("checkbox", { name: "Select HOSE-7" }).isChecked(), true);
        assert.equal(await p.getByRole("textbox", { name: "Quantity sold PUMP-8" }).inputValue(), "1");
        assert.equal((await logOf(env, a.lineId)).length, 0);

        // A USB scanner's Enter in a quantity field: the form's default is Select line, nothing is checked in.
        await qtyIn.fill("1");
        await qtyIn.press("Enter");
        await p.getByRole("alert").filter({ hasText: "Nothing was sent" }).waitFor();
        assert.equal(await qtyIn.inputValue(), "1");
        assert.equal((await logOf(env, a.lineId)).length, 0);

        // A scanned serial (typed, Enter) marks its line with all that is out.
        const serial = p.getByRole("searchbox", { name: "Serial number (scan or type)" });
        await serial.fill("pump-8");
        await serial.press("Enter");
        await p.getByRole("status").filter({ hasText: "PUMP-8: 1 in." }).waitFor();
        assert.equal(await p.getByRole("textbox", { name: "Quantity in PUMP-8" }).inputValue(), "1");
        assert.equal(await p.getByRole("checkbox", { name: "Select PUMP-8" }).isChecked(), true);
        await p.getByRole("textbox", { name: "Quantity sold PUMP-8" }).fill("");

        await toolbar.getByRole("button", { name: "Submit Check-In" }).tap();
        await p.getByRole("status").filter({ hasText: "Checked in 2 lines" }).waitFor();
        assert.equal((await logOf(env, a.lineId))[0]?.quantity_in, 1);
        assert.equal((await logOf(env, b.lineId))[0]?.quantity_in, 1);
        // Still in check-in mode, the fields empty for the next.
        assert.equal(await qtyIn.inputValue(), "");
        // Cancel Check-In leaves the mode.
        await toolbar.getByRole("button", { name: "Cancel Check-In" }).tap();
        await p.waitForURL((u) => !u.searchParams.has("mode"));
        await toolbar.getByRole("button", { name: "Check-In", exact: true }).waitFor();
      });
    }),
);

browserTest(
  "pages before their scripts - the top bar's scan opens the serial search, focused, and a typed serial and Enter its page",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const job = await makeJob(env.tenant.db, { job_number: "SCAN-JOB" });
      await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "VALVE-42" });
      await signIn(undefined, undefined, "/pt/jobs");
      await withoutScripts(page, async (p) => {
        await p.goto(`${base}/pt/jobs`);
        await p.getByRole("button", { name: "Scan a serial number" }).tap();
        await p.waitForURL((u) => u.pathname === "/serials");
        // The search box has the focus: a USB scanner types into it without a tap (its Enter sends it).
        await p.waitForFunction(() => document.activeElement?.id === "serial-search");
        await p.keyboard.type("VALVE-42");
        await p.keyboard.press("Enter");
        await p.waitForURL((u) => u.pathname === "/serials/VALVE-42");
        await p.getByRole("heading", { name: "Serial VALVE-42" }).waitFor();
        await p.getByText("SCAN-JOB").first().waitFor();
      });
    }),
);
