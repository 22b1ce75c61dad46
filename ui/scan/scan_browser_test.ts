import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import { qrVideo } from "../../scripts/testing/qr_image.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { makeInspection, makeInventory, makeJob } from "../../db/factories.ts";
import { heldLine } from "../../api/sales/lines/checkin_fixtures.ts";
import { ALL_GRANTS } from "../../lib/policy.ts";

const PASSWORD = "scan-pass-1";

/** A user of the owner company with every role. */
async function staff(env: TestEnv) {
  const { user } = await env.userWithToken({ permissions: [...ALL_GRANTS], password: PASSWORD });
  return user;
}

/** What a USB scanner does: types the code into the focused field and presses Enter. */
async function usbScan(page: Page, dialogName: string, code: string) {
  const dialog = page.getByRole("dialog", { name: dialogName });
  const field = dialog.getByRole("textbox", { name: "Serial number or QR code" });
  await eventually(async () => assert.ok(await field.evaluate((el) => el === document.activeElement)));
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  return dialog;
}

/**
 * Scans as a scanner sends them: each code's characters and Enter, one code straight after the other,
 * nothing waited for in between (no one looks at the screen).
 */
async function scanner(page: Page, dialogName: string, codes: string[]) {
  const dialog = page.getByRole("dialog", { name: dialogName });
  const field = dialog.getByRole("textbox", { name: "Serial number or QR code" });
  await eventually(async () => assert.ok(await field.evaluate((el) => el === document.activeElement)));
  for (const code of codes) {
    await page.keyboard.type(code);
    await page.keyboard.press("Enter");
  }
  return { dialog, field };
}

/**
 * Counts the refusal cue's tones (WebAudio oscillators started) and buzzes (`navigator.vibrate`) in the
 * page, letting both through: read with `cues(page)`.
 */
async function countCues(page: Page) {
  await page.addInitScript(() => {
    const counts = { tones: 0, buzzes: 0 };
    (globalThis as unknown as { cues: typeof counts }).cues = counts;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      counts.tones++;
      return start.call(this, when);
    };
    const nav = Navigator.prototype as unknown as { vibrate?: (pattern: number[]) => boolean };
    const vibrate = nav.vibrate;
    nav.vibrate = function (this: Navigator, pattern: number[]) {
      counts.buzzes++;
      return vibrate ? vibrate.call(this, pattern) : false;
    };
  });
}
const cues = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { cues: { tones: number; buzzes: number } }).cues);

browserTest(
  "scan - the top bar's scan opens a scanned serial's page; an unknown serial is said",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const user = await staff(env);
      await makeInventory(env.tenant.db, { serial_number: "VX 100/A" });
      await signIn(user.email, PASSWORD, "/pt/jobs");
      await page.getByRole("button", { name: "Scan a serial number" }).click();
      const dialog = await usbScan(page, "Scan a serial number", "NOPE-1");
      await dialog.getByRole("alert").getByText("No record of serial number NOPE-1 was found.").waitFor();
      // the refused scan left nothing in the field for the next one to be joined to
      assert.equal(await dialog.getByRole("textbox").inputValue(), "");
      // a label's URL, as a scanner reads the QR code, of another host name of the business
      await usbScan(page, "Scan a serial number", "https://old.example/serials/VX%20100%2FA");
      await page.waitForURL((u) => u.pathname === "/serials/VX%20100%2FA");
    }),
);

browserTest(
  "scan - scanned serials join a new batch; a repeat is refused",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const user = await staff(env);
      const job = await makeJob(env.tenant.db);
      await signIn(user.email, PASSWORD, `/pt/inspection?job_id=${job.id}`);
      await page.getByRole("button", { name: "Enter new batch" }).click();
      const form = page.getByRole("dialog", { name: "New Batch" });
      await form.getByRole("button", { name: "Scan serial numbers" }).click();
      const scan = "Scan serial numbers into the batch";
      let dialog = await usbScan(page, scan, "B-1");
      await dialog.getByRole("status").getByText("Added B-1: 1 in the batch.").waitFor();
      dialog = await usbScan(page, scan, "https://acme.test/serials/B-2");
      await dialog.getByRole("status").getByText("Added B-2: 2 in the batch.").waitFor();
      dialog = await usbScan(page, scan, "b-1");
      await dialog.getByRole("alert").getByText("b-1 is already in the batch.").waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      for (const s of ["B-1", "B-2"]) await form.getByRole("button", { name: `Remove ${s}` }).waitFor();
      assert.equal(await form.getByRole("listitem").count(), 2);
    }),
);

browserTest(
  "scan - fast scans into a new batch never merge; a refused one is cleared, said, sounded and buzzed",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const user = await staff(env);
      const job = await makeJob(env.tenant.db);
      await countCues(page);
      await signIn(user.email, PASSWORD, `/pt/inspection?job_id=${job.id}`);
      await page.getByRole("button", { name: "Enter new batch" }).click();
      const form = page.getByRole("dialog", { name: "New Batch" });
      await form.getByRole("button", { name: "Scan serial numbers" }).click();
      const name = "Scan serial numbers into the batch";
      // issue 32: the third is refused (already in the batch); the fourth used to be added as SCAN-1SCAN-3
      const { dialog, field } = await scanner(page, name, [
        "SCAN-1",
        "SCAN-2",
        "https://acme.test/serials/SCAN-1",
        "SCAN-3",
      ]);
      await dialog.getByRole("status").getByText("Added SCAN-3: 3 in the batch.").waitFor();
      assert.equal(await field.inputValue(), "");
      assert.deepEqual(await cues(page), { tones: 2, buzzes: 1 }, "one refusal: two beeps, one buzz");
      await scanner(page, name, ["scan-2"]);
      await dialog.getByRole("alert").getByText("scan-2 is already in the batch.").waitFor();
      assert.equal(await field.inputValue(), "");
      await eventually(async () => assert.equal((await cues(page)).buzzes, 2));
      await scanner(page, name, ["SCAN-4"]);
      await dialog.getByRole("status").getByText("Added SCAN-4: 4 in the batch.").waitFor();
      assert.equal(await dialog.getByRole("alert").textContent(), "", "a success clears the last refusal");
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      const chips = await form.getByRole("button", { name: /^Remove / }).evaluateAll((els) =>
        els.map((e) => e.getAttribute("aria-label"))
      );
      assert.deepEqual(chips, ["Remove SCAN-1", "Remove SCAN-2", "Remove SCAN-3", "Remove SCAN-4"]);
    }),
);

browserTest(
  "scan - check-in scans never merge: after a refused serial the next scans still check their lines in",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const { user } = await env.userWithToken({ password: PASSWORD });
      const a = await heldLine(env, { quantity: 2, row: { serial_number: "HOSE-1" } });
      await heldLine(env, { quantity: 1, row: { serial_number: "PUMP-2" }, line: { ticket_id: a.ticketId } });
      await heldLine(env, { quantity: 3, row: { serial_number: "REEL-3" }, line: { ticket_id: a.ticketId } });
      await countCues(page);
      await signIn(user.email, PASSWORD, `/sales/tickets/${a.ticketId}`);
      const toolbar = page.getByRole("toolbar", { name: "Ticket actions" });
      await toolbar.getByRole("button", { name: "Check-In" }).click();
      await toolbar.getByRole("button", { name: "Scan" }).click();
      const name = "Scan to check in";
      const { dialog, field } = await scanner(page, name, ["HOSE-1", "NOT-HERE", "PUMP-2"]);
      await dialog.getByRole("status").getByText("PUMP-2: 1 in.", { exact: false }).waitFor();
      assert.equal(await field.inputValue(), "");
      assert.equal((await cues(page)).buzzes, 1);
      await scanner(page, name, ["NOT-HERE"]);
      await dialog.getByRole("alert").getByText("No line on this ticket has serial number NOT-HERE.")
        .waitFor();
      assert.equal(await field.inputValue(), "");
      await scanner(page, name, ["https://acme.test/serials/reel-3"]);
      await dialog.getByRole("status").getByText("REEL-3: 3 in.", { exact: false }).waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      for (const serial of ["HOSE-1", "PUMP-2", "REEL-3"]) {
        assert.equal(
          await page.getByRole("checkbox", { name: `Select ${serial}` }).isChecked(),
          true,
          serial,
        );
      }
      assert.equal(await page.getByRole("textbox", { name: "Quantity in REEL-3" }).inputValue(), "3");
    }),
);

browserTest(
  "scan - the camera reads a QR label (fake camera, the JS decoder) and opens its serial",
  async () => {
    const video = await Deno.makeTempFile({ suffix: ".y4m" });
    try {
      await qrVideo("https://acme.test/serials/CAM-7", video);
      await withBrowser(async ({ env, page, signIn }) => {
        const user = await staff(env);
        await makeInspection(env.tenant.db, { serial_number: "CAM-7" });
        await signIn(user.email, PASSWORD, "/pt/jobs");
        // Linux Chromium has no BarcodeDetector: the scan falls back to the JS decoder
        assert.equal(await page.evaluate(() => "BarcodeDetector" in globalThis), false);
        await page.getByRole("button", { name: "Scan a serial number" }).click();
        const dialog = page.getByRole("dialog", { name: "Scan a serial number" });
        await dialog.getByRole("button", { name: "Use camera" }).click();
        await page.waitForURL((u) => u.pathname === "/serials/CAM-7", { timeout: 15000 });
      }, {
        flags: (base) => [
          "--use-fake-device-for-media-stream",
          "--use-fake-ui-for-media-stream",
          `--use-file-for-fake-video-capture=${video}`,
          // the camera needs a secure origin; the test server is plain http
          `--unsafely-treat-insecure-origin-as-secure=${base}`,
        ],
      });
    } finally {
      await Deno.remove(video);
    }
  },
);
