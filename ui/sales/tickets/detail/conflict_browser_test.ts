// Issue 29 point 3: two users editing the same ticket line, or the same ticket header, are told when the
// other saved first (decision 038): the conflict dialog names the fields, "Apply mine on top" keeps both
// changes, "Reload" shows theirs.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { secondUser } from "../../../../scripts/testing/second_user.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../../../db/factories.ts";
import { sales, tickets } from "../../../../db/schema/mod.ts";

async function setup(env: Parameters<Parameters<typeof withBrowser>[0]>[0]["env"]) {
  const db = env.tenant.db;
  const item = await makeItem(db, { item_number: "HOSE", item_description: "2in hose" });
  const row = await makeInventory(db, { item_id: item.id, serial_number: "HOSE-HOU", quantity: 10 });
  const a = await env.userWithToken({ name: "Ann Admin", permissions: ["sales-admin"], isSalesRep: true });
  const b = await env.userWithToken({ name: "Ben Admin", permissions: ["sales-admin"] });
  const ticket = await makeTicket(db, {
    ticket_number: "T-00002",
    status: "OPEN",
    use_min_rate_logic: false,
    sales_rep_id: a.user.id,
  });
  const line = await makeLine(db, { ticket_id: ticket.id, inventory_id: row.id, quantity: 1, discount: 0 });
  return { ticket, line, a: a.user, b: b.user };
}

const openLine = async (page: Page) => {
  await page.getByRole("button", { name: "Edit line HOSE-HOU" }).click();
  const form = page.getByRole("dialog", { name: "Edit Line Item" });
  await form.getByRole("spinbutton", { name: "Quantity" }).waitFor();
  return form;
};

browserTest(
  "conflicts - two users edit line HOSE-HOU: B is told of A's Discount, applies on top, or reloads",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const s = await setup(env);
      const path = `/sales/tickets/${s.ticket.id}`;
      await signIn(s.a.email, "password123", path);
      const { other, close } = await secondUser(page, base, s.b.email, path);
      try {
        const formA = await openLine(page);
        const formB = await openLine(other);
        await formA.getByLabel("Discount (%)").fill("20");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Line item updated").waitFor();

        await formB.getByRole("spinbutton", { name: "Quantity" }).fill("2");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(
          rows.some((r) => /Discount \(%\)\s+0\s+20/.test(r)),
          `Discount named, yours 0, theirs 20: ${rows}`,
        );
        assert.ok(rows.some((r) => /Quantity\s+2\s+1/.test(r)), `Quantity: yours 2, theirs 1: ${rows}`);
        const line = async () =>
          (await env.tenant.db.select().from(sales).where(eq(sales.id, s.line.id)).get())!;
        assert.deepEqual(
          [(await line()).quantity, (await line()).discount],
          [1, 20],
          "B's stale save wrote nothing",
        );

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Line item updated").waitFor();
        await formB.waitFor({ state: "detached" });
        assert.deepEqual([(await line()).quantity, (await line()).discount], [2, 20], "both changes kept");

        // Again (A's screen read afresh: it still showed the line before B's save), and B reloads: the form
        // shows A's values and drops B's edit.
        await page.reload();
        await page.waitForSelector("body[data-hydrated]", { state: "attached" });
        const againA = await openLine(page);
        const againB = await openLine(other);
        await againA.getByLabel("Discount (%)").fill("30");
        await againA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Line item updated").waitFor();
        await againB.getByRole("spinbutton", { name: "Quantity" }).fill("3");
        await againB.getByRole("button", { name: "Save" }).click();
        await conflict.getByRole("button", { name: "Reload" }).click();
        await conflict.waitFor({ state: "detached" });
        assert.equal(await againB.getByLabel("Discount (%)").inputValue(), "30");
        assert.equal(await againB.getByRole("spinbutton", { name: "Quantity" }).inputValue(), "2");
        assert.deepEqual([(await line()).quantity, (await line()).discount], [2, 30]);
        // Saving now goes through on the new version.
        await againB.getByLabel("Notes").fill("checked");
        await againB.getByRole("button", { name: "Save" }).click();
        await other.getByRole("status").getByText("Line item updated").waitFor();
        assert.deepEqual([(await line()).notes, (await line()).discount], ["checked", 30]);
      } finally {
        await close();
      }
    }),
);

browserTest(
  "conflicts - two users edit the ticket header: B's Location save is told of A's Notes, on a phone",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const s = await setup(env);
      const path = `/sales/tickets/${s.ticket.id}`;
      await signIn(s.a.email, "password123", path);
      const { other, close } = await secondUser(page, base, s.b.email, path, 390, 844);
      const toolbar = (p: Page) => p.getByRole("toolbar", { name: "Ticket actions" });
      try {
        await toolbar(page).getByRole("button", { name: "Edit Ticket" }).click();
        const formA = page.getByRole("dialog", { name: "Edit Ticket" });
        await toolbar(other).getByRole("button", { name: "Edit Ticket" }).click();
        const formB = other.getByRole("dialog", { name: "Edit Ticket" });
        await formB.getByRole("textbox", { name: "Location" }).waitFor();

        await formA.getByRole("textbox", { name: "Notes" }).fill("Customer wants photos");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.waitForURL((u) => u.pathname === "/sales/tickets");

        await formB.getByRole("textbox", { name: "Location" }).fill("Pad 7");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(
          rows.some((r) => /Notes\s+\(empty\)\s+Customer wants photos/.test(r)),
          `Notes named: ${rows}`,
        );
        await other.screenshot({ path: "test-results/conflict-dialog-390x844.png" });
        // Keyboard: the primary action has focus; Tab reaches Reload and Cancel within the dialog.
        const focused = await other.evaluate(() => document.activeElement?.textContent);
        assert.equal(focused, "Apply mine on top");
        await other.keyboard.press("Enter");
        await other.waitForURL((u) => u.pathname === "/sales/tickets");
        const t = (await env.tenant.db.select().from(tickets).where(eq(tickets.id, s.ticket.id)).get())!;
        assert.deepEqual([t.notes, t.location], ["Customer wants photos", "Pad 7"], "both changes kept");
      } finally {
        await close();
      }
    }),
);
