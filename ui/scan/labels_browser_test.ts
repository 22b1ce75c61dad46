import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PDFDocument } from "pdf-lib";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import { makeInspection, makeInventory, makeItem, makeJob } from "../../db/factories.ts";
import { ALL_GRANTS } from "../../lib/policy.ts";

const PASSWORD = "label-pass-1";

/** Downloads the labels with the chosen stock; answers the PDF's bytes and file name. */
async function printLabels(page: Page, stock: string) {
  const dialog = page.getByRole("dialog", { name: "Print QR labels" });
  await dialog.getByRole("button", { name: /Label stock/ }).click();
  await page.getByRole("option", { name: stock }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download PDF" }).click(),
  ]);
  await dialog.waitFor({ state: "detached" });
  const bytes = await Deno.readFile((await download.path())!);
  return { bytes, name: download.suggestedFilename() };
}

browserTest(
  "qr labels - rows picked on Serialized Inventory print as a sheet of labels",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const { user } = await env.userWithToken({ permissions: [...ALL_GRANTS], password: PASSWORD });
      const item = await makeItem(db, { inventory_type: "Serialized", item_number: "VLV-9" });
      for (const s of ["SN-A", "SN-B", "SN-C"]) {
        await makeInventory(db, { item_id: item.id, serial_number: s });
      }
      await signIn(user.email, PASSWORD, "/sales/serialized-inventory");
      const print = page.getByRole("button", { name: /Print QR labels/ });
      assert.equal(await print.isDisabled(), true, "nothing picked yet");
      await page.getByRole("checkbox", { name: "Select SN-A" }).check();
      await page.getByRole("checkbox", { name: "Select SN-C" }).check();
      await page.getByRole("button", { name: "Print QR labels (2)" }).click();
      const { bytes, name } = await printLabels(page, "Avery L7160 (21 per A4 sheet, 63.5 x 38.1 mm)");
      assert.equal(name, "Inventory QR labels.pdf");
      assert.equal((await PDFDocument.load(bytes)).getPageCount(), 1);
      const text = pdfText(bytes);
      assert.ok(text.includes("SN-A") && text.includes("SN-C") && !text.includes("SN-B"), text);
      assert.ok(text.includes("VLV-9"));
      await page.getByRole("button", { name: "Select page" }).click();
      await page.getByRole("button", { name: "Print QR labels (3)" }).waitFor();
    }),
);

browserTest(
  "qr labels - a job's serial numbers print one thermal label each",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const { user } = await env.userWithToken({ permissions: [...ALL_GRANTS], password: PASSWORD });
      const job = await makeJob(db, { job_number: "PT-5" });
      for (const s of ["J-1", "J-2"]) await makeInspection(db, { job_id: job.id, serial_number: s });
      await signIn(user.email, PASSWORD, `/pt/inspection?job_id=${job.id}`);
      await page.getByRole("button", { name: "Print QR labels" }).click();
      const { bytes, name } = await printLabels(page, "Thermal 2 x 1 in (one label per page)");
      assert.equal(name, "Job PT-5 QR labels.pdf");
      assert.equal((await PDFDocument.load(bytes)).getPageCount(), 2);
      assert.ok(pdfText(bytes).includes("J-2"));
    }),
);
