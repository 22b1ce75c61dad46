import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import type { InspectionOut } from "../../../api/pt/inspections/service.ts";
import { today as todayIn } from "../../../lib/format.ts";

const PDF =
  `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
  `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`;

/** Today on the company's clock (it sets no time zone: UTC): the forms' default date. */
const today = () => todayIn(new Date(), "UTC");

/** The form's Pass Visual? choice named `name` ("Not recorded", "Yes", "No"). */
const visual = (dialog: Locator, name: string) =>
  dialog.getByRole("group", { name: "Pass Visual?" }).getByRole("radio", { name, exact: true });

async function inspector(env: TestEnv) {
  const { user } = await env.userWithToken({
    company_id: 1,
    email: "inspector@acme.test",
    password: "inspect-pass-1",
    permissions: ["inspector"],
  });
  return user;
}

const listOf = async (env: TestEnv, jobId: number) =>
  (await env.json<{ results: InspectionOut[] }>(`/api/pt/inspections?job_id=${jobId}&rowsPerPage=-1`, {
    token: await env.login(),
  })).results;

browserTest(
  "inspections - an inspector enters one inspection for a job",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const job = await makeJob(env.tenant.db, { job_number: "J-4410" });
      await makePart(env.tenant.db, { name: "2in Plug Valve" });
      await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "OLD-1" });
      await inspector(env);
      await signIn("inspector@acme.test", "inspect-pass-1", `/pt/inspection?job_id=${job.id}`);
      await page.getByText("J-4410").waitFor();
      const table = page.getByRole("table", { name: "Inspections" });

      await page.getByRole("button", { name: "Enter new inspection" }).click();
      const dialog = page.getByRole("dialog", { name: "New Inspection" });
      assert.equal(await dialog.getByLabel("Date").inputValue(), today());
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("SN-500");
      await dialog.getByRole("textbox", { name: "Batch" }).fill("B-5");
      await dialog.getByRole("combobox", { name: "Part" }).fill("plug");
      await page.getByRole("option", { name: "2in Plug Valve" }).click();
      assert.equal(
        await visual(dialog, "Not recorded").isChecked(),
        true,
        "a new inspection records no result",
      );
      await visual(dialog, "Yes").check();
      await dialog.getByRole("spinbutton", { name: "UT 1" }).fill("0.31");
      await dialog.getByRole("spinbutton", { name: "Pressure" }).fill("15000");
      await dialog.getByRole("button", { name: /Band Color/ }).click();
      await page.getByRole("option", { name: "Green" }).click();
      await dialog.getByRole("button", { name: /MPI Result/ }).click();
      await page.getByRole("option", { name: "Not Required" }).click();
      await dialog.getByRole("textbox", { name: "Notes" }).fill("Seat looks good");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection created").waitFor();
      await dialog.waitFor({ state: "detached" });

      const row = table.getByRole("row", { name: /SN-500/ });
      await row.waitFor();
      // The newest entry comes first.
      assert.match(await table.getByRole("row").nth(1).innerText(), /SN-500/);
      for (const text of ["B-5", "2in Plug Valve", "Yes", "0.310", "15,000 psi", "Green", "Not Required"]) {
        await row.getByRole("cell", { name: text, exact: true }).waitFor();
      }
      const saved = (await listOf(env, job.id)).find((i) => i.serial_number === "SN-500")!;
      assert.deepEqual(
        [saved.date, saved.visual_pass, saved.ut_1, saved.pressure, saved.band_color, saved.mpi_result],
        [today(), true, 0.31, 15000, "Green", "Not Required"],
      );
      assert.equal(saved.job_id, job.id);
      assert.equal(saved.customer_company_id, job.customer_company_id);
      assert.equal(saved.notes, "Seat looks good");

      // An inspector is no job-admin: the expanded row has no Edit or Delete.
      await row.getByRole("button", { name: "Expand row" }).click();
      await table.getByText("Seat looks good", { exact: true }).last().waitFor();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await table.getByRole("button", { name: "Delete" }).count(), 0);
    }),
);

browserTest(
  "inspections - an inspection saved without touching its results records none: not a failed visual or MPI",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const job = await makeJob(env.tenant.db, { job_number: "J-32" });
      await inspector(env);
      await signIn("inspector@acme.test", "inspect-pass-1", `/pt/inspection?job_id=${job.id}`);
      await page.getByRole("button", { name: "Enter new inspection" }).click();
      const dialog = page.getByRole("dialog", { name: "New Inspection" });
      for (const name of ["Not recorded", "Yes", "No"]) {
        assert.equal(await visual(dialog, name).isChecked(), name === "Not recorded", name);
      }
      assert.match(await dialog.getByRole("button", { name: /MPI Result/ }).innerText(), /Not recorded/);
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("UNTOUCHED-1");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection created").waitFor();
      await page.getByRole("button", { name: "Enter new inspection" }).click();
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("FAILED-2");
      await visual(dialog, "No").check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection created").waitFor();
      const saved = await listOf(env, job.id);
      const of = (serial: string) => saved.find((i) => i.serial_number === serial)!;
      assert.deepEqual([of("UNTOUCHED-1").visual_pass, of("UNTOUCHED-1").mpi_result], [null, null]);
      assert.deepEqual([of("FAILED-2").visual_pass, of("FAILED-2").mpi_result], [false, null]);
    }),
);

browserTest(
  "inspections - an inspector enters a batch of pasted serials with a PDF, and the PT link opens the PDF",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const dir = mkdtempSync(join(tmpdir(), "batch-pdf-"));
      try {
        const pdf = join(dir, "pressure-test.pdf");
        const text = join(dir, "notes.txt");
        writeFileSync(pdf, PDF);
        writeFileSync(text, "not a pdf");
        const job = await makeJob(env.tenant.db);
        const part = await makePart(env.tenant.db, { name: "3in Swivel Joint" });
        await makeInspection(env.tenant.db, {
          job_id: job.id,
          serial_number: "A1",
          batch: "OLD",
          notes: "kept",
        });
        await inspector(env);
        await signIn("inspector@acme.test", "inspect-pass-1", `/pt/inspection?job_id=${job.id}`);
        const table = page.getByRole("table", { name: "Inspections" });

        await page.getByRole("button", { name: "Enter new batch" }).click();
        const dialog = page.getByRole("dialog", { name: "New Batch" });
        assert.equal(await dialog.getByLabel("Date").inputValue(), today());
        const serials = dialog.getByRole("textbox", { name: "Serial Numbers" });
        await serials.evaluate((el, pasted) => {
          const data = new DataTransfer();
          data.setData("text/plain", pasted);
          el.dispatchEvent(
            new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
          );
        }, "A1,A2,A3");
        await serials.fill("A4");
        await serials.press("Enter");
        await serials.fill("A5");
        await serials.press(",");
        for (const s of ["A1", "A2", "A3", "A4", "A5"]) {
          await dialog.getByRole("button", { name: `Remove ${s}` }).waitFor();
        }
        // A serial typed again is not added twice, and the field says so.
        await serials.fill("a2");
        await serials.press("Enter");
        await dialog.getByRole("status").getByText("a2 is already in the list.").waitFor();
        assert.equal(await dialog.getByRole("listitem").count(), 5);
        await serials.press("Backspace"); // removes A5
        await dialog.getByRole("button", { name: "Remove A4" }).click();
        assert.equal(await dialog.getByRole("listitem").count(), 3);
        await dialog.getByRole("combobox", { name: "Part" }).fill("swiv");
        await page.getByRole("option", { name: "3in Swivel Joint" }).click();
        await dialog.getByRole("textbox", { name: "Batch" }).fill("B-77");

        // A file that is not a PDF is refused before anything is sent.
        const file = dialog.getByLabel("Pressure Test PDF");
        await file.setInputFiles(text);
        await dialog.getByText("The attachment must be a PDF file").waitFor();
        assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
        // A text file named .pdf (and sent as application/pdf) is refused by its first bytes too.
        await file.setInputFiles({
          name: "fake.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from("just text"),
        });
        await dialog.getByText("The attachment must be a PDF file").waitFor();
        assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
        await file.setInputFiles(pdf);
        await dialog.getByText("pressure-test.pdf").waitFor();
        await dialog.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("2 inspections created, 1 updated").waitFor();
        await dialog.waitFor({ state: "detached" });

        for (const s of ["A1", "A2", "A3"]) {
          await table.getByRole("row", { name: new RegExp(`\\b${s}\\b.*B-77.*3in Swivel Joint`) }).waitFor();
        }
        const rows = await listOf(env, job.id);
        assert.deepEqual(rows.map((r) => r.serial_number).sort(), ["A1", "A2", "A3"]);
        assert.ok(rows.every((r) => r.batch === "B-77" && r.part_id === part.id));
        assert.equal(rows.find((r) => r.serial_number === "A1")!.notes, "kept");
        const href = rows[0].custom.pressure_test_pdf as string;
        assert.ok(rows.every((r) => r.custom.pressure_test_pdf === href));

        // The PT link hands over the stored PDF as a download from a new tab (decision 042: uploaded PDFs are
        // never shown inside this site's origin; Chromium saving it is api/files/files_browser_test.ts).
        const link = table.getByRole("row", { name: /\bA2\b/ }).getByRole("link", {
          name: "PDF",
          exact: true,
        });
        assert.equal(await link.getAttribute("href"), href);
        assert.equal(await link.getAttribute("target"), "_blank");
        // What the link gets, fetched with the same session: the uploaded PDF itself, as a download.
        const opened = await page.evaluate(async (url) => {
          const res = await fetch(url);
          return {
            type: res.headers.get("content-type"),
            disposition: res.headers.get("content-disposition"),
            body: await res.text(),
          };
        }, href);
        assert.equal(opened.type, "application/pdf");
        assert.match(opened.disposition ?? "", /^attachment;/);
        assert.equal(opened.body, PDF);

        // Reopened, the batch form starts empty again.
        await page.getByRole("button", { name: "Enter new batch" }).click();
        assert.equal(await dialog.getByRole("listitem").count(), 0);
        assert.equal(await dialog.getByRole("textbox", { name: "Batch" }).inputValue(), "");
        await dialog.getByText("No file chosen").waitFor();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
);

browserTest(
  "inspections - a job-admin edits and deletes an inspection",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const job = await makeJob(env.tenant.db);
      await makeInspection(env.tenant.db, {
        job_id: job.id,
        serial_number: "EDIT-1",
        ut_2: 0.4,
        band_color: "Red",
        notes: "first look",
      });
      await signIn(undefined, undefined, `/pt/inspection?job_id=${job.id}`);
      const table = page.getByRole("table", { name: "Inspections" });

      await table.getByRole("row", { name: /EDIT-1/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Edit" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Inspection" });
      assert.equal(await dialog.getByRole("textbox", { name: "Serial Number" }).inputValue(), "EDIT-1");
      assert.equal(await dialog.getByRole("spinbutton", { name: "UT 2" }).inputValue(), "0.4");
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("EDIT-2");
      await dialog.getByRole("spinbutton", { name: "UT 2" }).fill("0.45");
      await dialog.getByRole("button", { name: /Band Color/ }).click();
      await page.getByRole("option", { name: "Blue" }).click();
      await dialog.getByRole("textbox", { name: "Notes" }).fill("second look");
      // a recorded answer shows as such, and can be taken back to not recorded
      assert.equal(await visual(dialog, "Yes").isChecked(), true);
      await visual(dialog, "Not recorded").check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection updated").waitFor();
      await table.getByRole("row", { name: /EDIT-2.*0\.45.*Blue/ }).waitFor();
      const [edited] = await listOf(env, job.id);
      assert.deepEqual([
        edited.serial_number,
        edited.ut_2,
        edited.band_color,
        edited.notes,
        edited.visual_pass,
      ], [
        "EDIT-2",
        0.45,
        "Blue",
        "second look",
        null,
      ]);

      // The data view shows the same row, without edit actions.
      await page.goto(page.url().replace(/\/pt\/inspection\?.*/, "/pt/data"));
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await table.getByRole("row", { name: /EDIT-2/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByText("second look", { exact: true }).last().waitFor();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await page.getByRole("button", { name: "Enter new inspection" }).count(), 0);
      await page.goBack();
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });

      const expand = table.getByRole("button", { name: "Expand row" });
      await expand.click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this inspection?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Inspection deleted").waitFor();
      await table.getByText("No Inspections Found").waitFor();
      assert.deepEqual(await listOf(env, job.id), []);
    }),
);

browserTest(
  "data - searching by job number across jobs",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const customer = await makeCompany(env.tenant.db, { name: "Wildcat Energy" });
      const first = await makeJob(env.tenant.db, { job_number: "J-1001", customer_company_id: customer.id });
      const second = await makeJob(env.tenant.db, { job_number: "J-2002", date: "2024-03-05" });
      await makeInspection(env.tenant.db, { job_id: first.id, serial_number: "FIRST-1" });
      await makeInspection(env.tenant.db, { job_id: first.id, serial_number: "FIRST-2" });
      await makeInspection(env.tenant.db, { job_id: second.id, serial_number: "SECOND-1" });
      await signIn(undefined, undefined, "/pt/data");
      const table = page.getByRole("table", { name: "Inspections" });
      const pager = page.getByRole("navigation", { name: "Pagination" });
      await pager.getByText("1-3 of 3").waitFor();

      const search = page.getByRole("searchbox", { name: "Job Number" });
      await search.fill("j-2002");
      await search.press("Enter");
      await table.getByRole("row", { name: /FIRST-1/ }).waitFor({ state: "detached" });
      await table.getByRole("row", { name: /SECOND-1/ }).waitFor();
      await pager.getByText("1-1 of 1").waitFor();
      assert.match(page.url(), /\/pt\/data\?.*search_job_number=j-2002/);

      // Clearing it (Tab applies) brings every job back; the customer search narrows to one company.
      await search.fill("");
      await search.press("Tab");
      await pager.getByText("1-3 of 3").waitFor();
      const customerSearch = page.getByRole("searchbox", { name: "Customer" });
      await customerSearch.fill("wildcat");
      await customerSearch.press("Enter");
      await pager.getByText("1-2 of 2").waitFor();
      await table.getByRole("row", { name: /SECOND-1/ }).waitFor({ state: "detached" });
      await customerSearch.fill("");
      await customerSearch.press("Enter");
      await pager.getByText("1-3 of 3").waitFor();

      // The job date search, and the page reloaded from its URL keeps it.
      const date = page.getByLabel("Job Date");
      await date.fill("2024-03-05");
      await date.press("Enter");
      await pager.getByText("1-1 of 1").waitFor();
      await page.reload();
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await table.getByRole("row", { name: /SECOND-1/ }).waitFor();
      assert.equal(await page.getByLabel("Job Date").inputValue(), "2024-03-05");

      // Download: the filtered rows as a dated xlsx.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^Inspections-\d{4}-\d{2}-\d{2}\.xlsx$/);
    }),
);
