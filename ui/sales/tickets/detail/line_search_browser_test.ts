import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../../scripts/testing/browser.ts";
import { makeInventory, makeItem, makeLine, makeTicket } from "../../../../db/factories.ts";

browserTest(
  "ticket line search - kept in the address: a reload, Back from another page and the server's HTML keep it",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      const db = env.tenant.db;
      const t = await makeTicket(db, { status: "OPEN" });
      const item = await makeItem(db, { item_description: "Frac Valve 4in" });
      for (const serial of ["FV-001", "FV-002", "PUMP-9"]) {
        const row = await makeInventory(db, { serial_number: serial, item_id: item.id });
        await makeLine(db, { ticket_id: t.id, inventory_id: row.id, quantity: 1 });
      }
      const path = `/sales/tickets/${t.id}`;
      await signIn(undefined, undefined, path);
      const search = page.getByRole("searchbox", { name: "Search line items" });
      const count = page.getByText(/^\d+ of 3 lines$/);
      await search.fill("fv-");
      await count.filter({ hasText: "2 of 3 lines" }).waitFor();
      await page.waitForURL((u) => u.searchParams.get("search") === "fv-");

      await page.reload();
      await hydrated();
      assert.equal(await search.inputValue(), "fv-");
      assert.equal(await count.innerText(), "2 of 3 lines");

      // Away and Back: the page comes back with its search.
      await page.goto(`${base}/sales/items`);
      await page.goBack();
      await page.waitForURL((u) => u.pathname === path && u.searchParams.get("search") === "fv-");
      await hydrated();
      assert.equal(await search.inputValue(), "fv-");
      assert.equal(await count.innerText(), "2 of 3 lines");

      // Cleared, the address loses it.
      await search.fill("");
      await page.waitForURL((u) => !u.searchParams.has("search"));
      await page.getByText("3 lines", { exact: true }).waitFor();

      // Before the island hydrates, the server has found the lines already (and Enter in the field sends
      // the search there: the field is a GET form's).
      const token = await env.login();
      const html = await (await env.request(`${path}?search=PUMP`, { cookie: `session=${token}` })).text();
      assert.match(html, /1 of 3 lines/);
      assert.match(html, /name="search"[^>]*value="PUMP"|value="PUMP"[^>]*name="search"/);
    }),
);
