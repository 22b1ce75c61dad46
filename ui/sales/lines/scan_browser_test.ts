import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../../scripts/testing/browser.ts";
import { heldLine, logOf } from "../../../api/sales/lines/checkin_fixtures.ts";

const PASSWORD = "scan-pass-1";
const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Ticket actions" });

/** A USB scanner: the code typed into the scan dialog's focused field, then Enter. */
async function usbScan(page: Page, dialogName: string, code: string) {
  const dialog = page.getByRole("dialog", { name: dialogName });
  const field = dialog.getByRole("textbox", { name: "Serial number or QR code" });
  await eventually(async () => assert.ok(await field.evaluate((el) => el === document.activeElement)));
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
  return dialog;
}

browserTest(
  "scan - in check-in mode a scanned serial's line is marked with what is still out, then checked in",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const { user } = await env.userWithToken({ password: PASSWORD });
      const a = await heldLine(env, { quantity: 2, row: { serial_number: "HOSE-1" } });
      const b = await heldLine(env, {
        quantity: 1,
        row: { serial_number: "PUMP-2" },
        line: { ticket_id: a.ticketId },
      });
      await signIn(user.email, PASSWORD, `/sales/tickets/${a.ticketId}`);
      await toolbar(page).getByRole("button", { name: "Check-In" }).click();
      await toolbar(page).getByRole("button", { name: "Scan" }).click();
      let dialog = await usbScan(page, "Scan to check in", "https://acme.test/serials/hose-1");
      await dialog.getByRole("status").getByText("HOSE-1: 2 in.", { exact: false }).waitFor();
      dialog = await usbScan(page, "Scan to check in", "NOT-HERE");
      await dialog.getByRole("alert").getByText("No line on this ticket has serial number NOT-HERE.")
        .waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      assert.equal(await page.getByRole("textbox", { name: "Quantity in HOSE-1" }).inputValue(), "2");
      assert.equal(await page.getByRole("checkbox", { name: "Select HOSE-1" }).isChecked(), true);
      assert.equal(await page.getByRole("checkbox", { name: "Select PUMP-2" }).isChecked(), false);
      await toolbar(page).getByRole("button", { name: "Submit Check-In" }).click();
      await page.getByRole("status").getByText("Checked in 1 line").waitFor();
      await eventually(async () => assert.equal((await logOf(env, a.lineId))[0]?.quantity_in, 2));
      assert.equal((await logOf(env, b.lineId)).length, 0);
    }),
);

browserTest(
  "scan - in the transfer dialog a scanned serial picks its line",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const { user } = await env.userWithToken({ password: PASSWORD });
      const a = await heldLine(env, { quantity: 2, row: { serial_number: "LOT-A" } });
      await heldLine(env, { quantity: 1, row: { serial_number: "LOT-B" }, line: { ticket_id: a.ticketId } });
      await signIn(user.email, PASSWORD, `/sales/tickets/${a.ticketId}`);
      await toolbar(page).getByRole("button", { name: "Transfer" }).click();
      const transfer = page.getByRole("dialog", { name: "Transfer Lines" });
      await transfer.getByRole("button", { name: "Scan" }).click();
      const dialog = await usbScan(page, "Scan lines to transfer", "LOT-B");
      await dialog.getByRole("status").getByText("LOT-B picked.").waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      const picked = await transfer.getByRole("group", { name: "Lines" }).getByRole("checkbox").evaluateAll((
        els,
      ) =>
        els.filter((e) => (e as HTMLInputElement).checked).map((e) => e.closest("label")?.textContent?.trim())
      );
      assert.equal(picked.length, 1);
      assert.ok(picked[0]?.startsWith("LOT-B"), String(picked[0]));
    }),
);
