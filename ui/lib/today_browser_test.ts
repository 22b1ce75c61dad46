import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { makeJob } from "../../db/factories.ts";
import { companies } from "../../db/schema/mod.ts";
import { heldLine } from "../../api/sales/lines/checkin_fixtures.ts";
import { today } from "../../lib/format.ts";

// 25 hours apart: at every moment the office's day (UTC+14) is not the browser's (UTC-11).
const OFFICE = "Pacific/Kiritimati";
const BROWSER = "Pacific/Pago_Pago";

/** The office's zone in the company's settings, the browser's clock in another. */
async function officeAndBrowser(env: TestEnv, page: Page) {
  await env.tenant.db.update(companies).set({ settings: { timeZone: OFFICE } }).where(eq(companies.id, 1));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setTimezoneOverride", { timezoneId: BROWSER });
}

/** The date field's value, checked against the office's today around the moment it was read. */
async function assertOfficeToday(read: () => Promise<string>, what: string) {
  const before = today(new Date(), OFFICE);
  const value = await read();
  const after = today(new Date(), OFFICE);
  assert.ok([before, after].includes(value), `${what}: ${value}, office's today ${after}`);
  assert.notEqual(value, today(new Date(), BROWSER), `${what}: not the browser's today`);
}

browserTest(
  "today's date - a new ticket and an approved invoice are dated on the office's clock, not the browser's",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await officeAndBrowser(env, page);
      const { user: boss } = await env.userWithToken({
        name: "Ann Approver",
        isSalesRep: true,
        permissions: ["approval-authority"],
      });
      const rfa = await heldLine(env, { row: { serial_number: "LOT-RFA" }, ticket: { status: "RFA" } });

      await signIn(boss.email, "password123", "/sales/tickets");
      await page.getByRole("button", { name: "New Ticket" }).click();
      const form = page.getByRole("dialog", { name: "New Ticket" });
      await assertOfficeToday(() => form.getByLabel("Ticket Date").inputValue(), "Ticket Date");
      await form.getByRole("button", { name: "Cancel" }).click();

      await page.goto(page.url().replace(/\/sales\/tickets.*$/, `/sales/approval/${rfa.ticketId}`));
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", {
        name: /Change Status/,
      })
        .click();
      await page.getByRole("option", { name: "Approved", exact: true }).click();
      const invoice = page.getByRole("dialog", { name: "Invoice" });
      await assertOfficeToday(() => invoice.getByLabel("Invoice Date").inputValue(), "Invoice Date");
    }),
);

browserTest(
  "today's date - a new job, inspection and batch start on the office's day, not the browser's",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      await officeAndBrowser(env, page);
      const job = await makeJob(env.tenant.db, { job_number: "J-7001" });

      await signIn(undefined, undefined, "/pt/jobs");
      await page.getByRole("button", { name: "New Job" }).click();
      const jobForm = page.getByRole("dialog", { name: "New Job" });
      await assertOfficeToday(
        () => jobForm.getByLabel("Date", { exact: true }).inputValue(),
        "Job Date",
      );
      await jobForm.getByRole("button", { name: "Cancel" }).click();

      await page.goto(`${base}/pt/inspection?job_id=${job.id}`);
      await hydrated();
      await page.getByRole("button", { name: "Enter new inspection" }).click();
      const one = page.getByRole("dialog", { name: "New Inspection" });
      await assertOfficeToday(() => one.getByLabel("Date").inputValue(), "Inspection Date");
      await one.getByRole("button", { name: "Cancel" }).click();
      await one.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Enter new batch" }).click();
      const batch = page.getByRole("dialog", { name: "New Batch" });
      await assertOfficeToday(() => batch.getByLabel("Date").inputValue(), "Batch Date");
    }),
);
