import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import { qrVideo } from "../../scripts/testing/qr_image.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";
import { makeInspection, makeInventory, makeJob } from "../../db/factories.ts";
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
      await dialog.getByRole("textbox").fill("");
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
