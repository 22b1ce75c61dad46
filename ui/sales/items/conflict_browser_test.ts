// Issue 29 point 3 on the catalogue (decision 038): two users editing the same item are told when the other
// saved first; the conflict dialog names the other's field and "Apply mine on top" keeps both changes.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { conflictOf, openRowEdit as openEdit, secondUser } from "../../../scripts/testing/second_user.ts";
import { makeInventory, makeItem } from "../../../db/factories.ts";
import { inventory, items } from "../../../db/schema/mod.ts";

browserTest(
  "catalogue conflicts - two users edit item HOSE: B is told of A's Rate and applies their Description on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const item = await makeItem(db, { item_number: "HOSE", item_description: "2in hose", rate: 125 });
      const a = await env.userWithToken({ name: "Ann Admin", permissions: ["sales-admin"] });
      const b = await env.userWithToken({ name: "Ben Admin", permissions: ["sales-admin"] });
      await signIn(a.user.email, "password123", "/sales/items");
      const { other, close } = await secondUser(page, base, b.user.email, "/sales/items");
      const stored = async () => (await db.select().from(items).where(eq(items.id, item.id)).get())!;
      try {
        const formA = await openEdit(page, "Items", /HOSE/, "Edit Item");
        const formB = await openEdit(other, "Items", /HOSE/, "Edit Item");
        await formA.getByRole("spinbutton", { name: "Rate" }).fill("150");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Item updated").waitFor();

        await formB.getByRole("textbox", { name: "Item Description" }).fill("3in hose");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = conflictOf(other);
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(
          rows.some((r) => /^Rate\s+125\s+150$/.test(r)),
          `Rate named, yours 125, theirs 150: ${rows}`,
        );
        assert.ok(
          rows.some((r) => /^Item Description\s+3in hose\s+2in hose$/.test(r)),
          `Item Description: yours, theirs: ${rows}`,
        );
        assert.deepEqual([(await stored()).rate, (await stored()).item_description], [150, "2in hose"]);

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Item updated").waitFor();
        await formB.waitFor({ state: "detached" });
        assert.deepEqual(
          [(await stored()).rate, (await stored()).item_description],
          [150, "3in hose"],
          "both changes kept",
        );
      } finally {
        await close();
      }
    }),
);

browserTest(
  "catalogue conflicts - two users edit stock row HOSE-7: B reloads A's Location, then saves on the new version",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const item = await makeItem(db, { item_number: "HOSE", inventory_type: "Itemized" });
      const row = await makeInventory(db, {
        item_id: item.id,
        serial_number: "HOSE-7",
        quantity: 10,
        location: "",
        manufacturer: "",
      });
      const a = await env.userWithToken({ name: "Ann Admin", permissions: ["sales-admin"] });
      const b = await env.userWithToken({ name: "Ben Admin", permissions: ["sales-admin"] });
      const path = "/sales/itemized-inventory";
      await signIn(a.user.email, "password123", path);
      const { other, close } = await secondUser(page, base, b.user.email, path);
      const stored = async () => (await db.select().from(inventory).where(eq(inventory.id, row.id)).get())!;
      const openRow = async (p: Page) => {
        const t = p.getByRole("table", { name: "Itemized Inventory" });
        await t.getByRole("row", { name: /HOSE-7/ }).getByRole("button", { name: "Actions for HOSE-7" })
          .click();
        await p.getByRole("menuitem", { name: "Edit" }).click();
        const form = p.getByRole("dialog", { name: "Edit Inventory" });
        await form.getByRole("textbox", { name: "Location" }).waitFor();
        return form;
      };
      try {
        const formA = await openRow(page);
        const formB = await openRow(other);
        await formA.getByRole("textbox", { name: "Location" }).fill("Rack 4");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Inventory updated").waitFor();

        await formB.getByRole("textbox", { name: "Manufacturer" }).fill("Gates");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = conflictOf(other);
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /^Location\s+\(empty\)\s+Rack 4$/.test(r)), `Location named: ${rows}`);
        await conflict.getByRole("button", { name: "Reload" }).click();
        await conflict.waitFor({ state: "detached" });
        assert.equal(await formB.getByRole("textbox", { name: "Location" }).inputValue(), "Rack 4");
        assert.equal(await formB.getByRole("textbox", { name: "Manufacturer" }).inputValue(), "");
        assert.equal((await stored()).manufacturer, "", "B's stale save wrote nothing");

        await formB.getByRole("textbox", { name: "Manufacturer" }).fill("Gates");
        await formB.getByRole("button", { name: "Save" }).click();
        await other.getByRole("status").getByText("Inventory updated").waitFor();
        assert.deepEqual([(await stored()).location, (await stored()).manufacturer], ["Rack 4", "Gates"]);
      } finally {
        await close();
      }
    }),
);
