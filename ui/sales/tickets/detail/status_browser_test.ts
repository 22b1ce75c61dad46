import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { makeCompany } from "../../../../db/factories.ts";
import { tickets } from "../../../../db/schema/mod.ts";
import { heldLine } from "../../../../api/sales/lines/checkin_fixtures.ts";
import type { TestEnv } from "../../../../scripts/testing/harness.ts";
import { BLOCKED_UNTIL_HANDLED } from "../../../../api/sales/tickets/rules.ts";

const ticketOf = (env: TestEnv, id: number) =>
  env.tenant.db.select().from(tickets).where(eq(tickets.id, id)).get().then((t) => t!);

const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Ticket actions" });

/** The Change Status choices offered in the toolbar (the list is closed again after). */
async function statusOptions(page: Page): Promise<string[]> {
  await toolbar(page).getByRole("button", { name: /Change Status/ }).click();
  const list = page.getByRole("listbox");
  await list.getByRole("option").first().waitFor();
  const names = await list.getByRole("option").allInnerTexts();
  await page.keyboard.press("Escape");
  await list.waitFor({ state: "detached" });
  return names.map((n) => n.trim());
}

async function chooseStatus(page: Page, label: string) {
  await toolbar(page).getByRole("button", { name: /Change Status/ }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

/** A ticket of one customer with a sales rep and a line holding stock. */
async function setup(env: TestEnv, status: "OPEN" | "RFB" | "RFA", repId: number, customerId: number) {
  return await heldLine(env, {
    quantity: 2,
    stock: 5,
    row: { serial_number: `LOT-${status}` },
    ticket: { status, sales_rep_id: repId, customer_id: customerId },
  });
}

browserTest(
  "ticket status - a sales user moves OPEN to Ready To Bill; approval needs every line handled",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
      const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const open = await setup(env, "OPEN", rep.id, customer.id);
      const rfb = await setup(env, "RFB", rep.id, customer.id);
      const rfa = await setup(env, "RFA", rep.id, customer.id);

      await signIn(rep.email, "password123", `/sales/tickets/${open.ticketId}`);
      assert.deepEqual(await statusOptions(page), ["Ready To Bill"]);
      await chooseStatus(page, "Ready To Bill");
      const form = page.getByRole("dialog", { name: "Edit Ticket" });
      await form.getByRole("combobox", { name: "Customer" }).waitFor();
      assert.equal(await form.getByRole("combobox", { name: "Customer" }).inputValue(), "Permian Energy");
      assert.equal(await form.getByRole("combobox", { name: "Sales Rep" }).inputValue(), "Rita Rep");
      assert.match(await form.getByRole("button", { name: /Status/ }).innerText(), /Ready To Bill/);
      await form.getByRole("textbox", { name: "Location" }).fill("Pad 9");
      await form.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/sales/tickets");
      await page.getByRole("status").getByText("Ticket updated").waitFor();
      const moved = await ticketOf(env, open.ticketId);
      assert.deepEqual([moved.status, moved.location], ["RFB", "Pad 9"]);

      // Request approval with a line still out: the spec's sentence at the Status field as the form opens,
      // before any Save; Save sends nothing and says why; nothing typed is lost.
      await page.goto(`${base}/sales/ready-for-billing/${rfb.ticketId}`);
      await hydrated();
      assert.deepEqual(await statusOptions(page), ["Open", "Request For Approval"]);
      await chooseStatus(page, "Request For Approval");
      const again = page.getByRole("dialog", { name: "Edit Ticket" });
      await again.getByText(BLOCKED_UNTIL_HANDLED).waitFor();
      const puts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "PUT" && r.url().includes("/api/sales/tickets")) puts.push(r.url());
      });
      await again.getByRole("textbox", { name: "Notes" }).fill("Check the hoses");
      assert.equal(await again.getByRole("button", { name: "Save" }).isDisabled(), true, "Save is dimmed");
      await again.getByRole("textbox", { name: "Location" }).press("Enter");
      await again.getByRole("status").getByText("Check the fields marked above.").waitFor();
      assert.deepEqual(puts, [], "nothing is sent that the server would refuse");
      assert.equal(await again.isVisible(), true, "the dialog stays open");
      assert.equal(await again.getByRole("textbox", { name: "Notes" }).inputValue(), "Check the hoses");
      assert.equal((await ticketOf(env, rfb.ticketId)).status, "RFB");
      await again.getByRole("button", { name: "Cancel" }).click();
      await again.waitFor({ state: "detached" });

      // Without approval authority an RFA ticket is not offered Approved, in the toolbar or the form.
      await page.goto(`${base}/sales/approval/${rfa.ticketId}`);
      await hydrated();
      assert.deepEqual(await statusOptions(page), ["Ready To Bill"]);
      await toolbar(page).getByRole("button", { name: "Edit Ticket" }).click();
      const edit = page.getByRole("dialog", { name: "Edit Ticket" });
      await edit.getByRole("button", { name: /Status/ }).click();
      const choices = (await page.getByRole("listbox").getByRole("option").allInnerTexts()).map((s) =>
        s.trim()
      );
      assert.deepEqual(choices, ["Ready To Bill", "Request For Approval"]);
    }),
);

browserTest(
  "ticket status - an approver approves an RFA ticket into an invoice and downloads its PDF",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
      const { user: boss } = await env.userWithToken({
        name: "Ann Approver",
        isSalesRep: true,
        permissions: ["approval-authority"],
      });
      const rfa = await setup(env, "RFA", boss.id, customer.id);

      await signIn(boss.email, "password123", `/sales/approval/${rfa.ticketId}`);
      assert.deepEqual(await statusOptions(page), ["Ready To Bill", "Approved"]);
      await chooseStatus(page, "Approved");
      const form = page.getByRole("dialog", { name: "Invoice" });
      const date = form.getByRole("textbox", { name: "Invoice Date" }).or(form.getByLabel("Invoice Date"));
      assert.match(
        await date.first().inputValue(),
        /^\d{4}-\d{2}-\d{2}$/,
        "approving dates the invoice today",
      );
      await form.getByText("Signed", { exact: true }).click();
      await form.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((u) => u.pathname === "/sales/invoices");
      await page.getByRole("status").getByText("Invoice created").waitFor();
      const invoice = await ticketOf(env, rfa.ticketId);
      assert.deepEqual([invoice.status, invoice.isInvoice, invoice.isSigned], ["APP", true, true]);
      assert.match(invoice.invoice_number ?? "", /^INV-\d{5}$/);
      assert.ok(invoice.invoice_date);

      // The invoice downloads as a PDF (Invoice first for an approved ticket, Ticket also offered).
      await page.goto(page.url().replace(/\/sales\/invoices.*$/, `/sales/invoices/${rfa.ticketId}`));
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await toolbar(page).getByRole("button", { name: "Download" }).click();
      const dialog = page.getByRole("dialog", { name: "Download" });
      assert.match(await dialog.getByRole("button", { name: /Document/ }).innerText(), /Invoice/);
      await dialog.getByText("Include attachments").click();
      const [pdfResponse, file] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/api/sales/ticketpdf")),
        page.waitForEvent("download"),
        dialog.getByRole("button", { name: "Download" }).click(),
      ]);
      const url = new URL(pdfResponse.url());
      assert.deepEqual(
        [
          url.searchParams.get("type"),
          url.searchParams.get("printInvoice"),
          url.searchParams.get("include_attachments"),
        ],
        ["invoice", "true", "true"],
      );
      assert.equal(pdfResponse.headers()["content-type"], "application/pdf");
      assert.equal(file.suggestedFilename(), `Invoice-${invoice.invoice_number}.pdf`);
      const bytes = await Deno.readFile((await file.path())!);
      assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
      await dialog.waitFor({ state: "detached" });
    }),
);

browserTest(
  "ticket check-in - a check-in in flight shows and announces that it is saving, and cannot be sent twice",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
      const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const open = await setup(env, "OPEN", rep.id, customer.id);
      await signIn(rep.email, "password123", `/sales/tickets/${open.ticketId}`);
      await toolbar(page).getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("textbox", { name: "Quantity in LOT-OPEN" }).fill("1");
      // The server's answer is held until the busy state has been seen.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let posts = 0;
      await page.route("**/api/sales/inventory/check-in", async (route) => {
        posts++;
        await held;
        await route.continue();
      });
      await toolbar(page).getByRole("button", { name: "Submit Check-In" }).click();
      const busy = toolbar(page).getByRole("button", { name: "Checking in..." });
      await busy.waitFor();
      assert.equal(await busy.isDisabled(), true);
      await toolbar(page).getByRole("status").getByText("Checking in, please wait...").waitFor({
        state: "attached",
      });
      await busy.click({ force: true }).catch(() => undefined);
      release();
      await page.getByRole("status").getByText("Checked in 1 line").waitFor();
      assert.equal(posts, 1, "one check-in sent");
    }),
);
