import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import { PHONE } from "../../scripts/testing/phone.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { makeJob } from "../../db/factories.ts";
import { heldLine } from "../../api/sales/lines/checkin_fixtures.ts";
import { ALL_GRANTS } from "../../lib/policy.ts";

const PASSWORD = "lazy-pass-1";

async function staff(env: TestEnv) {
  const { user } = await env.userWithToken({ permissions: [...ALL_GRANTS], password: PASSWORD });
  return user;
}

/** Every script the page asks for, by file name (`ScanDialog-abc123.js`), in order. */
function scriptsOf(page: Page): string[] {
  const names: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") names.push(new URL(r.url()).pathname.split("/").pop()!);
  });
  return names;
}
const asked = (names: string[], chunk: string) => names.filter((n) => n.startsWith(`${chunk}-`)).length;

/** The scan dialog's field has the focus: a USB scanner's typing goes there. */
async function readyForScanner(page: Page, dialogName: string) {
  const field = page.getByRole("dialog", { name: dialogName }).getByRole("textbox", {
    name: "Serial number or QR code",
  });
  await eventually(async () => assert.ok(await field.evaluate((el) => el === document.activeElement)));
  return field;
}

browserTest(
  "lazy dialogs - a ticket in check-in mode on a phone fetches its scan dialog once idle, before any tap on Scan; Scan then opens it ready, by touch and by keyboard",
  () =>
    withBrowser(async ({ env, page, signIn, hydrated }) => {
      const user = await staff(env);
      const a = await heldLine(env, { quantity: 2, row: { serial_number: "HOSE-7" } });
      const scripts = scriptsOf(page);
      await signIn(user.email, PASSWORD, `/sales/tickets/${a.ticketId}`);
      await hydrated();
      const toolbar = page.getByRole("toolbar", { name: "Ticket actions" });
      // Outside check-in mode there is no Scan button, and its dialog is not fetched.
      assert.equal(asked(scripts, "ScanDialog"), 0, "no scan dialog before check-in mode");

      const fetched = page.waitForResponse((r) => /\/ScanDialog-[^/]*\.js$/.test(r.url()));
      await toolbar.getByRole("button", { name: "Check-In" }).tap();
      await page.getByRole("textbox", { name: "Quantity in HOSE-7" }).waitFor();
      // Nobody has touched Scan: the chunk comes because the page went idle with a Scan button on it.
      assert.equal((await fetched).status(), 200);

      // Its code is there: Scan opens the dialog itself, with no "Loading..." in between, not even for a frame.
      await page.evaluate(() => {
        const w = globalThis as unknown as { sawLoading: boolean };
        w.sawLoading = false;
        new MutationObserver(() => {
          if (document.querySelector('[role="dialog"][aria-label="Loading"]')) w.sawLoading = true;
        }).observe(document.body, { subtree: true, childList: true });
      });
      await toolbar.getByRole("button", { name: "Scan", exact: true }).tap();
      await readyForScanner(page, "Scan to check in");
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { sawLoading: boolean }).sawLoading),
        false,
      );
      await page.keyboard.type("HOSE-7");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Scan to check in" });
      await dialog.getByRole("status").getByText("HOSE-7: 2 in.", { exact: false }).waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // By keyboard: Scan focused, Enter opens it again, its field takes the scanner's typing.
      await toolbar.getByRole("button", { name: "Scan", exact: true }).focus();
      await page.keyboard.press("Enter");
      await readyForScanner(page, "Scan to check in");
      assert.equal(asked(scripts, "ScanDialog"), 1, "fetched once");
    }, PHONE),
);

browserTest(
  "lazy dialogs - Enter new batch fetches the batch form when focused, opens it by keyboard, and the batch's scan dialog is fetched before its Scan is pressed",
  () =>
    withBrowser(async ({ env, page, signIn, hydrated }) => {
      const user = await staff(env);
      const job = await makeJob(env.tenant.db);
      const scripts = scriptsOf(page);
      await signIn(user.email, PASSWORD, `/pt/inspection?job_id=${job.id}`);
      await hydrated();
      assert.equal(asked(scripts, "BatchForm"), 0, "no batch form at load");

      const form = page.waitForResponse((r) => /\/BatchForm-[^/]*\.js$/.test(r.url()));
      await page.getByRole("button", { name: "Enter new batch" }).focus();
      assert.equal((await form).status(), 200, "focus starts the download");
      const scan = page.waitForResponse((r) => /\/ScanDialog-[^/]*\.js$/.test(r.url()));
      await page.keyboard.press("Enter");
      const batch = page.getByRole("dialog", { name: "New Batch" });
      await batch.getByRole("button", { name: "Scan serial numbers" }).waitFor();
      assert.equal((await scan).status(), 200, "the batch's scan dialog comes once idle");

      await batch.getByRole("button", { name: "Scan serial numbers" }).focus();
      await page.keyboard.press("Enter");
      await readyForScanner(page, "Scan serial numbers into the batch");
      await page.keyboard.type("B-77");
      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Scan serial numbers into the batch" }).getByRole("status")
        .getByText("Added B-77: 1 in the batch.").waitFor();
      assert.equal(asked(scripts, "BatchForm"), 1);
      assert.equal(asked(scripts, "ScanDialog"), 1);
    }),
);
