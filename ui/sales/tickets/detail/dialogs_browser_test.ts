import assert from "node:assert/strict";
import { desc, eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { rejections, tickets } from "../../../../db/schema/mod.ts";
import { heldLine, post } from "../../../../api/sales/lines/checkin_fixtures.ts";

const CHECK_IN = "/api/sales/inventory/check-in";

browserTest(
  "ticket dialogs - an approver rejects an RFA ticket, then the notice in RFB is resolved",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const db = env.tenant.db;
      const s = await heldLine(env, {
        quantity: 2,
        stock: 4,
        row: { serial_number: "LOT-A" },
        ticket: { status: "RFA" },
      });
      const token = await env.login();
      await post(env, token, CHECK_IN, { ticket_id: s.ticketId, line_items: [s.lineId], quantities_in: [2] });
      const number = (await db.select().from(tickets).where(eq(tickets.id, s.ticketId)).get())!.ticket_number;
      const { user: boss } = await env.userWithToken({
        name: "Ann Approver",
        permissions: ["approval-authority"],
      });

      await signIn(boss.email, "password123", `/sales/approval/${s.ticketId}`);
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", { name: "Reject" })
        .click();
      const reject = page.getByRole("dialog", { name: "Reject" });
      await reject.getByRole("table", { name: "Rejections" }).getByText("No rejections yet").waitFor();
      const submit = reject.getByRole("button", { name: "Submit" });
      assert.equal(await submit.isDisabled(), true, "a comment is required in RFA");
      await reject.getByRole("textbox", { name: "Comment" }).fill("Wrong rate on LOT-A");
      assert.equal(await reject.getByRole("checkbox", { name: "Resolved" }).isChecked(), false);
      await submit.click();

      await page.waitForURL((u) => u.pathname === "/sales/ready-for-billing");
      await page.getByRole("status").getByText("Ticket rejected").waitFor();
      await page.getByRole("table", { name: "Ready For Billing" }).getByRole("row", {
        name: new RegExp(number),
      })
        .waitFor();
      assert.equal((await db.select().from(tickets).where(eq(tickets.id, s.ticketId)).get())!.status, "RFB");

      // In RFB the notice shows the rejections; Resolved starts as the latest one's (unresolved).
      await page.goto(`${base}/sales/ready-for-billing/${s.ticketId}`);
      await hydrated();
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", {
        name: "Rejection Notice",
      })
        .click();
      const notice = page.getByRole("dialog", { name: "Rejection Notice" });
      const row = notice.getByRole("table", { name: "Rejections" }).getByRole("row", {
        name: /Wrong rate on LOT-A/,
      });
      await row.waitFor();
      assert.match(
        await row.innerText(),
        /^\d{2}-\d{2}-\d{2} \d{2}:\d{2}\s+No\s+Wrong rate on LOT-A\s+Ann Approver$/,
      );
      const send = notice.getByRole("button", { name: "Submit" });
      const resolved = notice.getByRole("checkbox", { name: "Resolved" });
      assert.equal(await resolved.isChecked(), false);
      assert.equal(await send.isDisabled(), true, "submit needs Resolved in RFB");
      await notice.getByText("Mark it resolved to submit.").waitFor();
      await notice.locator("label", { hasText: "Resolved" }).click();
      await notice.getByRole("textbox", { name: "Comment" }).fill("Rate fixed");
      assert.equal(await send.isDisabled(), false);
      await send.click();
      await notice.waitFor({ state: "detached" });
      await page.getByRole("status").getByText("Rejection saved").waitFor();
      assert.match(
        page.url(),
        new RegExp(`/sales/ready-for-billing/${s.ticketId}$`),
        "the notice stays on the ticket",
      );

      const saved = await db.select().from(rejections).where(eq(rejections.ticket_id, s.ticketId))
        .orderBy(desc(rejections.id));
      assert.deepEqual(saved.map((r) => [r.comment, r.resolved, r.created_by_id]), [
        ["Rate fixed", true, boss.id],
        ["Wrong rate on LOT-A", false, boss.id],
      ]);
      assert.equal((await db.select().from(tickets).where(eq(tickets.id, s.ticketId)).get())!.status, "RFB");
    }),
);
