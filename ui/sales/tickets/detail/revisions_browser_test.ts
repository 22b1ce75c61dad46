import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { makeCompany, makeInventory, makeItem, makeLine, makeTicket } from "../../../../db/factories.ts";

for (const width of [390, 1366]) {
  browserTest(
    `invoice revisions - a re-issued invoice says Rev. 1 on its screen and in the list; the original stays a link (${width} px)`,
    () =>
      withBrowser(async ({ env, page, signIn }) => {
        const db = env.tenant.db;
        const customer = await makeCompany(db, { name: "Permian Energy" });
        const item = await makeItem(db, {
          item_number: "GK-1",
          item_description: "Gasket kit",
          isExpendable: true,
        });
        const row = await makeInventory(db, { item_id: item.id, quantity: 50 });
        const t = await makeTicket(db, {
          customer_id: customer.id,
          ticket_number: "T-00031",
          status: "RFA",
          use_min_rate_logic: false,
        });
        const line = await makeLine(db, { ticket_id: t.id, inventory_id: row.id, quantity: 2, price: 40 });
        const { user, token } = await env.userWithToken({
          name: "Ada Approver",
          permissions: ["approval-authority", "sales-admin"],
        });
        const put = (path: string, json: unknown) => env.json(path, { token, method: "PUT", json });
        await put("/api/sales/tickets", { id: t.id, status: "APP" });
        await put("/api/sales/tickets", { id: t.id, status: "OPEN" });
        const reopened = await env.json(`/api/sales/sales/ticket?ticket_id=${t.id}`, { token });
        await put("/api/sales/sales", { ...reopened.results[0], id: line.id, quantity: 3 });
        for (const status of ["RFB", "RFA", "APP"]) await put("/api/sales/tickets", { id: t.id, status });

        await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
        await signIn(user.email, "password123", `/sales/invoices/${t.id}`);
        const number = (await env.json(`/api/sales/tickets/${t.id}`, { token })).invoice_number;
        await page.getByRole("heading", { level: 1, name: new RegExp(`${number} Rev\\. 1`) }).waitFor();
        const revisions = page.getByRole("region", { name: "Invoice revisions" });
        const items = revisions.getByRole("listitem");
        assert.equal(await items.count(), 2);
        assert.match(await items.nth(0).innerText(), /\$80\.00, cancelled .* by Ada Approver/);
        assert.match(await items.nth(1).innerText(), /\$120\.00, current, issued/);
        const original = items.nth(0).getByRole("link", { name: number });
        assert.equal(
          await original.getAttribute("href"),
          `/api/sales/ticketpdf?ticket_id=${t.id}&type=invoice&revision=0`,
        );
        // The original opens as the PDF it was, with the session's cookie.
        const pdf = await page.evaluate(async (href) => {
          const res = await fetch(href);
          return { status: res.status, type: res.headers.get("content-type") };
        }, (await original.getAttribute("href"))!);
        assert.deepEqual(pdf, { status: 200, type: "application/pdf" });
        // Nothing of the section overflows a phone's width.
        const box = await revisions.boundingBox();
        assert.ok(box && box.x + box.width <= width, `revisions fit in ${width} px`);
        if (width === 390) await page.screenshot({ path: ".cache/revisions-390.png", fullPage: true });

        await page.goto(new URL("/sales/invoices", page.url()).href);
        const listed = page.getByRole("table", { name: "Invoices" }).getByRole("row", { name: /T-00031/ });
        assert.match(await listed.innerText(), new RegExp(`${number} Rev\\. 1`));
      }),
  );
}
