import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeJob, makeUser } from "../../../db/factories.ts";
import type { JobRow } from "../../../api/pt/jobs/schemas.ts";
import { today as todayIn } from "../../../lib/format.ts";

/** Today on the company's clock (it sets no time zone: UTC), the form's default date. */
const today = () => todayIn(new Date(), "UTC");

/** What the browser gets for `href` with its session: the content type, or the status when not 200. */
const contentType = (page: Page, href: string | null) =>
  page.evaluate(async (url) => {
    const res = await fetch(url!);
    return res.ok ? res.headers.get("content-type") : String(res.status);
  }, href);

browserTest(
  "jobs - an inspector's admin creates a job through the dialog with the autocompletes, finds it by job number, edits it and deletes it",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Bluestem Energy", company_type: "customer_company" });
      await makeCompany(env.tenant.db, { name: "Redline Operating", company_type: "operator_company" });
      await makeCompany(env.tenant.db, { name: "Hawk Operating", company_type: "operator_company" });
      await makeJob(env.tenant.db, { job_number: "OTHER-1", date: "2024-01-02" });
      const token = await env.login();
      const find = async (text: string) =>
        (await env.json<{ results: JobRow[] }>(
          `/api/pt/jobs?search_job_number=${encodeURIComponent(text)}`,
          { token },
        )).results;
      await signIn(undefined, undefined, "/pt/jobs");
      await page.getByRole("heading", { name: "Welcome, Administrator" }).waitFor();
      const table = page.getByRole("table", { name: "Jobs" });

      // Create: today is the default date, the inspection company is the user's, read-only.
      await page.getByRole("button", { name: "New Job" }).click();
      let dialog = page.getByRole("dialog", { name: "New Job" });
      assert.equal(await dialog.getByLabel("Date", { exact: true }).inputValue(), today());
      const owner = dialog.getByRole("textbox", { name: "Inspection Company" });
      assert.equal(await owner.inputValue(), "Acme Inspections");
      assert.equal(await owner.isEditable(), false);
      // Opening the dialog hides page scrolling.
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), "hidden");
      await dialog.getByRole("textbox", { name: "Job Number" }).fill("PT-2025-001");
      const customer = dialog.getByRole("combobox", { name: "Customer" });
      await customer.click();
      await page.getByRole("listbox").getByText("Type to begin searching").waitFor();
      await customer.fill("blue");
      await page.getByRole("option", { name: "Bluestem Energy" }).click();
      await dialog.getByRole("combobox", { name: "Operator" }).fill("red");
      // Only operator companies are offered as operators.
      await page.getByRole("option", { name: "Redline Operating" }).waitFor();
      assert.equal(await page.getByRole("option", { name: "Bluestem Energy" }).count(), 0);
      await page.getByRole("option", { name: "Redline Operating" }).click();
      await dialog.getByRole("textbox", { name: "District" }).fill("Permian");
      await dialog.getByRole("textbox", { name: "Inspector" }).fill("Dwayne Carter");
      await dialog.getByRole("textbox", { name: "UV Serial Number" }).fill("UV-77");
      await dialog.getByLabel("UV Recalibration Date").fill("2025-01-15");
      await dialog.getByRole("textbox", { name: "Blacklight Reading" }).fill("1250");
      await dialog.getByRole("textbox", { name: "UT Serial Number" }).fill("UT-88");
      await dialog.getByLabel("UT Recalibration Date").fill("2025-02-20");
      await dialog.getByRole("textbox", { name: "Comments" }).fill("Frac stack, 15k");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Job created").waitFor();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), "visible");
      const row = table.getByRole("row", { name: /PT-2025-001/ });
      await row.getByRole("cell", { name: "Bluestem Energy" }).waitFor();
      await row.getByRole("cell", { name: "Redline Operating" }).waitFor();
      const [created] = await find("PT-2025-001");
      assert.deepEqual(
        [
          created.date,
          created.customer_company.name,
          created.operator_company.name,
          created.inspection_company_id,
        ],
        [today(), "Bluestem Energy", "Redline Operating", 1],
      );
      assert.deepEqual(
        [created.uv_recalibration_date, created.ut_recalibration_date, created.comments],
        ["2025-01-15", "2025-02-20", "Frac stack, 15k"],
      );
      // The date shows as MM-DD-YYYY; the report opens the job's PDF in a new tab.
      const [y, m, d] = today().split("-");
      await row.getByRole("cell", { name: `${m}-${d}-${y}` }).waitFor();
      const report = row.getByRole("link", { name: /Job Report PDF/ });
      assert.equal(await report.getAttribute("href"), `/api/pt/jobs/${created.id}/report`);
      assert.equal(await report.getAttribute("target"), "_blank");
      assert.equal(await contentType(page, await report.getAttribute("href")), "application/pdf");

      // Search by job number: nothing happens while typing; Enter applies it and the URL keeps it.
      const search = page.getByRole("searchbox", { name: "Job Number" });
      const searches: string[] = [];
      const onRequest = (r: { url(): string }) => {
        if (/[?&]search_job_number=/.test(r.url())) searches.push(r.url());
      };
      page.on("request", onRequest);
      await search.fill("2025-0");
      await search.press("Enter");
      await table.getByRole("row", { name: /OTHER-1/ }).waitFor({ state: "detached" });
      // Once the network is quiet: the search was asked for once, by Enter, never by the typing before it.
      await page.waitForLoadState("networkidle");
      page.off("request", onRequest);
      assert.equal(searches.length, 1, searches.join("\n"));
      assert.match(page.url(), /search_job_number=2025-0/);
      assert.equal(await table.getByRole("row").count(), 2); // header + the new job

      // Edit: the form holds the job; the operator changes through its autocomplete.
      await row.getByRole("button", { name: "Expand row" }).click();
      const inspection = table.getByRole("link", { name: "Inspection" });
      assert.equal(await inspection.getAttribute("href"), `/pt/inspection?job_id=${created.id}`);
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Job" });
      assert.equal(await dialog.getByRole("textbox", { name: "Job Number" }).inputValue(), "PT-2025-001");
      assert.equal(await dialog.getByRole("combobox", { name: "Customer" }).inputValue(), "Bluestem Energy");
      const operator = dialog.getByRole("combobox", { name: "Operator" });
      assert.equal(await operator.inputValue(), "Redline Operating");
      await operator.fill("hawk");
      await page.getByRole("option", { name: "Hawk Operating" }).click();
      await dialog.getByRole("textbox", { name: "District" }).fill("Eagle Ford");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Job updated").waitFor();
      await row.getByRole("cell", { name: "Hawk Operating" }).waitFor();
      const [edited] = await find("PT-2025-001");
      assert.deepEqual([edited.operator_company.name, edited.district, edited.comments], [
        "Hawk Operating",
        "Eagle Ford",
        "Frac stack, 15k",
      ]);

      // Delete, through the confirmation.
      const expand = row.getByRole("button", { name: "Expand row" });
      if (await expand.count()) await expand.click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this job?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Job deleted").waitFor();
      await table.getByText("No Jobs Found").waitFor();
      assert.deepEqual(await find("PT-2025-001"), []);
    }),
);

browserTest(
  "jobs - the job form shows the spec's messages and keeps Save disabled",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Bluestem Energy", company_type: "customer_company" });
      await makeCompany(env.tenant.db, { name: "Redline Operating", company_type: "operator_company" });
      await makeJob(env.tenant.db, { job_number: "DUP-1" });
      await signIn(undefined, undefined, "/pt/jobs");
      await page.getByRole("button", { name: "New Job" }).click();
      const dialog = page.getByRole("dialog", { name: "New Job" });
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true);
      // No message before a field has been visited.
      assert.equal(await dialog.getByText("Required", { exact: true }).count(), 0);

      // Visiting each field of the empty form shows its message; the date (today) needs none.
      const boxes = [
        "Job Number",
        "District",
        "Inspector",
        "UV Serial Number",
        "UV Recalibration Date",
        "Blacklight Reading",
        "UT Serial Number",
        "UT Recalibration Date",
        "Comments",
      ];
      for (const name of boxes) {
        const box = dialog.getByLabel(name, { exact: true });
        await box.focus();
        await box.blur();
      }
      // The autocompletes open on focus; Tab leaves each one (Customer, then Operator, then District).
      await dialog.getByRole("combobox", { name: "Customer" }).focus();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await dialog.getByText("Customer is required").waitFor();
      await dialog.getByText("Operator is required").waitFor();
      assert.equal(await dialog.getByText("Required", { exact: true }).count(), boxes.length);
      const date = dialog.getByLabel("Date", { exact: true });
      await date.fill("");
      await date.blur();
      assert.equal(await dialog.getByText("Required", { exact: true }).count(), boxes.length + 1);
      assert.equal(await save.isDisabled(), true);

      // Filling every field enables Save; emptying one disables it again.
      await date.fill("2025-04-01");
      const fill: Record<string, string> = {
        "Job Number": "DUP-1",
        "District": "Permian",
        "Inspector": "Dwayne Carter",
        "UV Serial Number": "UV-1",
        "UV Recalibration Date": "2025-01-01",
        "Blacklight Reading": "1200",
        "UT Serial Number": "UT-1",
        "UT Recalibration Date": "2025-01-02",
        "Comments": "None",
      };
      for (const [name, value] of Object.entries(fill)) {
        await dialog.getByLabel(name, { exact: true }).fill(value);
      }
      await dialog.getByRole("combobox", { name: "Customer" }).fill("Blue");
      await page.getByRole("option", { name: "Bluestem Energy" }).click();
      assert.equal(await save.isDisabled(), true);
      await dialog.getByRole("combobox", { name: "Operator" }).fill("Red");
      await page.getByRole("option", { name: "Redline Operating" }).click();
      assert.equal(await dialog.getByText("Required", { exact: true }).count(), 0);
      assert.equal(await save.isDisabled(), false);
      await dialog.getByRole("textbox", { name: "District" }).fill("");
      await dialog.getByText("Required", { exact: true }).waitFor();
      assert.equal(await save.isDisabled(), true);
      await dialog.getByRole("textbox", { name: "District" }).fill("Permian");

      // The server's refusal shows under its field and in the red snackbar; the dialog stays open.
      await save.click();
      await dialog.getByText("A job with this number already exists.").waitFor();
      await page.getByRole("alert").getByText("A job with this number already exists.").waitFor();
      await dialog.getByRole("textbox", { name: "Job Number" }).fill("NEW-1");
      assert.equal(await dialog.getByText("A job with this number already exists.").count(), 0);
      await save.click();
      await page.getByRole("status").getByText("Job created").waitFor();
      await page.getByRole("table", { name: "Jobs" }).getByRole("row", { name: /NEW-1/ }).waitFor();
    }),
);

browserTest(
  "jobs - a customer user sees only their jobs, read-only",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const customer = await makeCompany(env.tenant.db, { name: "Bluestem Energy" });
      const other = await makeCompany(env.tenant.db, { name: "Other Customer" });
      await makeJob(env.tenant.db, { job_number: "MINE-1", customer_company_id: customer.id });
      const theirs = await makeJob(env.tenant.db, { job_number: "THEIRS-1", customer_company_id: other.id });
      // Even a job-admin grant gives a customer's user no writes.
      await makeUser(env.tenant.db, {
        company_id: customer.id,
        name: "Casey Customer",
        email: "casey@bluestem.test",
        password: "casey-pass-1",
        permissions: ["job-admin", "inspector"],
      });
      await signIn("casey@bluestem.test", "casey-pass-1", "/pt/jobs");
      await page.getByRole("heading", { name: "Welcome, Casey Customer" }).waitFor();
      const table = page.getByRole("table", { name: "Jobs" });
      const row = table.getByRole("row", { name: /MINE-1/ });
      await row.waitFor();
      assert.equal(await table.getByRole("row", { name: /THEIRS-1/ }).count(), 0);
      assert.equal(await page.getByRole("button", { name: "New Job" }).count(), 0);
      await page.getByRole("searchbox", { name: "Operator" }).waitFor();
      await page.getByRole("searchbox", { name: "Job Number" }).waitFor();
      assert.equal(await page.getByRole("searchbox", { name: "Customer" }).count(), 0);

      await row.getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("link", { name: "Inspection" }).waitFor();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await table.getByRole("button", { name: "Delete" }).count(), 0);

      // Their own report opens; another customer's job is not found.
      const href = await row.getByRole("link", { name: /Job Report PDF/ }).getAttribute("href");
      assert.equal(await contentType(page, href), "application/pdf");
      assert.equal(await contentType(page, `/api/pt/jobs/${theirs.id}/report`), "404");

      // Refresh fetches jobs added since the page loaded.
      await makeJob(env.tenant.db, { job_number: "MINE-2", customer_company_id: customer.id });
      await page.getByRole("button", { name: "Refresh" }).click();
      await table.getByRole("row", { name: /MINE-2/ }).waitFor();
    }),
);
