import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeTicket } from "../../../db/factories.ts";
import { sales, tickets } from "../../../db/schema/mod.ts";
import { heldLine, post } from "../../../api/sales/lines/checkin_fixtures.ts";
import type { TestEnv } from "../../../scripts/testing/harness.ts";

const ticketOf = (env: TestEnv, id: number) =>
  env.tenant.db.select().from(tickets).where(eq(tickets.id, id)).get().then((t) => t!);

const toolbar = (page: Page) => page.getByRole("toolbar", { name: "Ticket actions" });

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
  "line transfer - unsold lines are transferred to a new ticket; at least one is needed",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const customer = await makeCompany(db, { name: "Permian Energy" });
      const { user: rep, token } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const a = await setup(env, "OPEN", rep.id, customer.id);
      const b = await heldLine(env, {
        quantity: 3,
        stock: 5,
        row: { serial_number: "LOT-B" },
        line: { ticket_id: a.ticketId },
      });
      const c = await heldLine(env, {
        quantity: 2,
        stock: 5,
        row: { serial_number: "LOT-SOLD" },
        line: { ticket_id: a.ticketId },
      });
      await post(env, token, "/api/sales/inventory/check-in", {
        ticket_id: a.ticketId,
        line_items: [c.lineId],
        quantities_sold: [1],
      });

      const other = await makeTicket(db, {
        status: "OPEN",
        customer_id: customer.id,
        sales_rep_id: rep.id,
        ticket_date: "2026-03-05",
        business_unit_id: (await ticketOf(env, a.ticketId)).business_unit_id,
      });
      await signIn(rep.email, "password123", `/sales/tickets/${a.ticketId}`);
      await toolbar(page).getByRole("button", { name: "Transfer" }).click();
      const dialog = page.getByRole("dialog", { name: "Transfer Lines" });
      await dialog.getByRole("button", { name: /Transfer To/ }).click();
      const offeredTicket = page.getByRole("option", { name: new RegExp(`^${other.ticket_number} · `) });
      assert.match(await offeredTicket.innerText(), /· 03-05-2026$/, "a page's date: MM-DD-YYYY, not ISO");
      await page.keyboard.press("Escape");
      await offeredTicket.waitFor({ state: "hidden" });
      const lines = dialog.getByRole("group", { name: "Lines" });
      await lines.getByRole("checkbox").first().waitFor();
      const offered = await lines.getByRole("checkbox").evaluateAll((els) =>
        els.map((e) => e.closest("label")?.textContent?.trim())
      );
      assert.equal(offered.length, 2, "the line with sold quantity stays");
      assert.ok(offered.some((t) => t?.startsWith("LOT-B")) && !offered.some((t) => t?.includes("LOT-SOLD")));
      const send = dialog.getByRole("button", { name: "Transfer", exact: true });
      assert.equal(await send.isDisabled(), true);
      await dialog.getByText(/^LOT-B/).click();
      await dialog.getByText(/^LOT-B/).click();
      await dialog.getByText("Select at least one line").waitFor();
      await dialog.getByText(/^LOT-B/).click();
      assert.match(await dialog.getByRole("button", { name: /Transfer To/ }).innerText(), /New ticket/);
      await send.click();

      await page.waitForURL((u) => u.pathname === "/sales/tickets");
      const snack = page.getByRole("status").getByText(/^Transferred 1 line to /);
      await snack.waitFor();
      const moved = await db.select().from(sales).where(eq(sales.id, b.lineId)).get();
      assert.notEqual(moved!.ticket_id, a.ticketId);
      const target = await ticketOf(env, moved!.ticket_id);
      assert.deepEqual([target.status, target.isTransfer, target.customer_id], ["OPEN", true, customer.id]);
      assert.equal(await snack.innerText(), `Transferred 1 line to ${target.ticket_number}`);
      const left = await db.select({ id: sales.id }).from(sales).where(eq(sales.ticket_id, a.ticketId));
      assert.deepEqual(left.map((l) => l.id).sort(), [a.lineId, c.lineId].sort());
    }),
);

browserTest(
  "line transfer - sold items of an invoice are billed back on a new ticket",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      const customer = await makeCompany(db, { name: "Permian Energy" });
      const { user: rep, token } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      const a = await setup(env, "RFA", rep.id, customer.id);
      const kept = await heldLine(env, {
        quantity: 1,
        row: { serial_number: "LOT-IN" },
        line: { ticket_id: a.ticketId },
      });
      await post(env, token, "/api/sales/inventory/check-in", {
        ticket_id: a.ticketId,
        line_items: [a.lineId, kept.lineId],
        quantities_in: [0, 1],
        quantities_sold: [2, 0],
      });
      await db.update(tickets).set({ status: "APP", isInvoice: true, invoice_number: "INV-00042" })
        .where(eq(tickets.id, a.ticketId));

      await signIn(rep.email, "password123", `/sales/invoices/${a.ticketId}`);
      await toolbar(page).getByRole("button", { name: "Bill Back" }).click();
      const dialog = page.getByRole("dialog", { name: "Bill Back" });
      const boxes = dialog.getByRole("group", { name: "Lines" }).getByRole("checkbox");
      await boxes.first().waitFor();
      assert.equal(await boxes.count(), 1, "only the line with sold quantity qualifies");
      await dialog.getByText(/^LOT-RFA .* Qty 2$/).click();
      await dialog.getByRole("button", { name: "Bill Back", exact: true }).click();

      await page.waitForURL((u) => u.pathname === "/sales/tickets");
      const snack = page.getByRole("status").getByText(/^Billed back 1 line on /);
      await snack.waitFor();
      const made = await db.select().from(tickets).where(eq(tickets.isBillBack, true));
      assert.equal(made.length, 1);
      assert.equal(await snack.innerText(), `Billed back 1 line on ${made[0].ticket_number}`);
      const billed = await db.select().from(sales).where(eq(sales.ticket_id, made[0].id));
      assert.deepEqual(billed.map((l) => [l.inventory_id, l.quantity, l.isSold]), [[a.inventoryId, 2, true]]);
      assert.equal((await ticketOf(env, a.ticketId)).status, "APP", "the invoice itself is unchanged");
    }),
);
