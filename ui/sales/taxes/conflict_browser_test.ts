// Issue 29 point 3 on taxes and categories (decision 038): two users editing the same record are told when
// the other saved first; the conflict dialog names the other's field; "Apply mine on top" keeps both
// changes, "Reload" shows theirs.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { conflictOf, openRowEdit as openEdit, secondUser } from "../../../scripts/testing/second_user.ts";
import { makeCategory } from "../../../db/factories.ts";
import { categories, taxes } from "../../../db/schema/mod.ts";

browserTest(
  "catalogue conflicts - two users edit tax Lea County: B, on a phone, is told of A's County and applies their City Rate on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const [tax] = await db.insert(taxes).values({
        company_id: 1,
        name: "Lea County",
        state: "NM",
        county: "Lea",
        state_rate: 5,
        rate: 5,
      }).returning();
      const a = await env.userWithToken({ name: "Ann Admin", permissions: ["sales-admin"] });
      const b = await env.userWithToken({ name: "Ben Admin", permissions: ["sales-admin"] });
      await signIn(a.user.email, "password123", "/sales/taxes");
      const { other, close } = await secondUser(page, base, b.user.email, "/sales/taxes", 390, 844);
      const stored = async () => (await db.select().from(taxes).where(eq(taxes.id, tax.id)).get())!;
      try {
        const formA = await openEdit(page, "Taxes", /Lea County/, "Edit Tax");
        const formB = await openEdit(other, "Taxes", /Lea County/, "Edit Tax");
        await formA.getByRole("textbox", { name: "County", exact: true }).fill("Lea Co.");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Tax updated").waitFor();

        await formB.getByRole("textbox", { name: "City Rate (%)" }).fill("1.5");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = conflictOf(other);
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /^County\s+Lea\s+Lea Co\.$/.test(r)), `County named, yours Lea: ${rows}`);
        assert.ok(rows.some((r) => /^City Rate \(%\)\s+1\.5\s+\(empty\)$/.test(r)), `City Rate: ${rows}`);
        assert.deepEqual([(await stored()).county, (await stored()).city_rate], ["Lea Co.", null]);
        await Deno.mkdir(".cache", { recursive: true });
        await other.screenshot({ path: ".cache/tax-conflict-390x844.png" });
        // The primary action has focus: Enter applies.
        assert.equal(await other.evaluate(() => document.activeElement?.textContent), "Apply mine on top");
        await other.keyboard.press("Enter");
        await other.getByRole("status").getByText("Tax updated").waitFor();
        await formB.waitFor({ state: "detached" });
        const t = await stored();
        assert.deepEqual([t.county, t.city_rate, t.rate], ["Lea Co.", 1.5, 6.5], "both changes kept");
      } finally {
        await close();
      }
    }),
);

browserTest(
  "catalogue conflicts - two users edit business unit Odessa Yard: B's added location meets A's Notes; B reloads, then applies",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const unit = await makeCategory(db, {
        model: "Business Unit",
        name: "Odessa Yard",
        notes: "",
        custom: { locations: ["North Rack"] },
      });
      const a = await env.userWithToken({ name: "Ann Admin", permissions: ["sales-admin"] });
      const b = await env.userWithToken({ name: "Ben Admin", permissions: ["sales-admin"] });
      const path = "/sales/business-units";
      await signIn(a.user.email, "password123", path);
      const { other, close } = await secondUser(page, base, b.user.email, path);
      const stored = async () =>
        (await db.select().from(categories).where(eq(categories.id, unit.id)).get())!;
      try {
        let formA = await openEdit(page, "Business Units", /Odessa Yard/, "Edit Business Unit");
        const formB = await openEdit(other, "Business Units", /Odessa Yard/, "Edit Business Unit");
        await formA.getByRole("textbox", { name: "Notes" }).fill("Gate code 1234");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Business Unit updated").waitFor();

        await formB.getByRole("button", { name: "Add Location" }).click();
        await formB.getByRole("textbox", { name: "Location 2" }).fill("South Rack");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = conflictOf(other);
        await conflict.waitFor();
        let rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /^Notes\s+\(empty\)\s+Gate code 1234$/.test(r)), `Notes named: ${rows}`);
        assert.ok(
          rows.some((r) => /^Locations\s+North Rack, South Rack\s+North Rack$/.test(r)),
          `Locations, listed: ${rows}`,
        );
        await conflict.getByRole("button", { name: "Reload" }).click();
        await conflict.waitFor({ state: "detached" });
        assert.equal(await formB.getByRole("textbox", { name: "Notes" }).inputValue(), "Gate code 1234");
        await formB.getByRole("textbox", { name: "Location 2" }).waitFor({ state: "detached" });

        // Again: A renames the notes while B adds the location; B applies theirs on top of A's.
        await page.reload();
        await page.waitForSelector("body[data-hydrated]", { state: "attached" });
        formA = await openEdit(page, "Business Units", /Odessa Yard/, "Edit Business Unit");
        await formA.getByRole("textbox", { name: "Notes" }).fill("Gate code 4321");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Business Unit updated").waitFor();
        await formB.getByRole("button", { name: "Add Location" }).click();
        await formB.getByRole("textbox", { name: "Location 2" }).fill("South Rack");
        await formB.getByRole("button", { name: "Save" }).click();
        await conflict.waitFor();
        rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /^Notes\s+Gate code 1234\s+Gate code 4321$/.test(r)), `Notes: ${rows}`);
        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Business Unit updated").waitFor();
        const u = await stored();
        assert.deepEqual([u.notes, u.custom.locations], ["Gate code 4321", ["North Rack", "South Rack"]]);
      } finally {
        await close();
      }
    }),
);
