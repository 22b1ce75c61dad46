// Issue 29 point 3 in administration (decision 038): two admins editing the same company (its settings
// included: they live on the company row and share its version), or the same user, are told when the
// other saved first; "Apply mine on top" keeps both changes.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { openRowEdit as openEdit, secondUser } from "../../scripts/testing/second_user.ts";
import { makeCompany, makeUser } from "../../db/factories.ts";
import { companies, users } from "../../db/schema/mod.ts";

browserTest(
  "conflicts - two superusers edit company Wildcat: B's address save is told of A's Settings, applies on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const co = await makeCompany(db, {
        name: "Wildcat Drilling",
        company_type: "customer_company",
        custom: { address_line_1: "12 Derrick Road", account: "W-7" },
      });
      const a = await env.userWithToken({ name: "Ann Super", permissions: ["superuser"] });
      const b = await env.userWithToken({ name: "Ben Super", permissions: ["superuser"] });
      const path = "/admin/companies?search_name=wildcat";
      await signIn(a.user.email, "password123", path);
      const { other, close } = await secondUser(page, base, b.user.email, path);
      const stored = async () => (await db.select().from(companies).where(eq(companies.id, co.id)).get())!;
      try {
        const formA = await openEdit(page, "Companies", "Wildcat Drilling", "Edit Company");
        const formB = await openEdit(other, "Companies", "Wildcat Drilling", "Edit Company");
        await formA.getByRole("textbox", { name: "Settings" }).fill('{"apps": ["sales"]}');
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Company updated").waitFor();

        await formB.getByRole("textbox", { name: "Address line 2" }).fill("Midland TX");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /^Settings\s/.test(r) && /sales/.test(r)), `Settings named: ${rows}`);
        assert.ok(rows.some((r) => /Address line 2\s+Midland TX\s+\(empty\)/.test(r)), `Address: ${rows}`);
        assert.equal((await stored()).custom.address_line_2 ?? "", "", "B's stale save wrote nothing");

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Company updated").waitFor();
        await formB.waitFor({ state: "detached" });
        const after = await stored();
        assert.deepEqual(after.settings, { apps: ["sales"] }, "A's settings kept");
        assert.deepEqual(
          [after.custom.address_line_1, after.custom.address_line_2, after.custom.account],
          ["12 Derrick Road", "Midland TX", "W-7"],
          "B's address added, the rest of custom kept",
        );
      } finally {
        await close();
      }
    }),
);

browserTest(
  "conflicts - two user-admins edit Dana's account, B on a phone: B's Name save is told of A's Phone, applies on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const dana = await makeUser(db, {
        company_id: 1,
        name: "Dana Driller",
        email: "dana@acme.test",
        phone: "555-0100",
      });
      const a = await env.userWithToken({ name: "Ann Users", permissions: ["user-admin"] });
      const b = await env.userWithToken({ name: "Ben Users", permissions: ["user-admin"] });
      const path = "/admin/accounts?search_name=dana";
      await signIn(a.user.email, "password123", path);
      const { other, close } = await secondUser(page, base, b.user.email, path, 390, 844);
      const stored = async () => (await db.select().from(users).where(eq(users.id, dana.id)).get())!;
      try {
        const formA = await openEdit(page, "Users", "Dana Driller", "Edit User", "Submit");
        const formB = await openEdit(other, "Users", "Dana Driller", "Edit User", "Submit");
        await formA.getByRole("textbox", { name: "Phone" }).fill("555-0199");
        await formA.getByRole("button", { name: "Submit" }).click();
        await page.getByRole("status").getByText("User updated").waitFor();

        await formB.getByRole("textbox", { name: "Name" }).fill("Dana Driller-Smith");
        await formB.getByRole("button", { name: "Submit" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /Phone\s+555-0100\s+555-0199/.test(r)), `Phone named: ${rows}`);
        assert.ok(rows.some((r) => /Name\s+Dana Driller-Smith\s+Dana Driller/.test(r)), `Name: ${rows}`);
        assert.equal((await stored()).name, "Dana Driller", "B's stale save wrote nothing");
        await other.screenshot({ path: ".cache/conflict-user-390x844.png" });

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("User updated").waitFor();
        await formB.waitFor({ state: "detached" });
        const after = await stored();
        assert.deepEqual([after.name, after.phone], ["Dana Driller-Smith", "555-0199"], "both changes kept");
      } finally {
        await close();
      }
    }),
);
