import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeUser } from "../../../db/factories.ts";
import type { CurrentUser } from "../../../api/lib/context.ts";

browserTest(
  "users - an admin creates a user, finds them by search, edits them, and deletes them",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Pumpjack Services" });
      await makeUser(env.tenant.db, { company_id: 1, name: "Someone Else" });
      const token = await env.login();
      const find = async (text: string) =>
        (await env.json<{ results: CurrentUser[] }>(
          `/api/admin/users?search_name=${encodeURIComponent(text)}`,
          {
            token,
          },
        )).results;
      await signIn(undefined, undefined, "/admin/accounts");
      await page.getByRole("heading", { name: "Welcome, Administrator" }).waitFor();
      const table = page.getByRole("table", { name: "Users" });

      // Create.
      await page.getByRole("button", { name: "Add User" }).click();
      let dialog = page.getByRole("dialog", { name: "Add User" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Dana Driller");
      await dialog.getByRole("textbox", { name: "Email" }).fill("dana@pumpjack.test");
      await dialog.getByRole("textbox", { name: "Password", exact: true }).fill("dana-secret-1");
      await dialog.getByRole("textbox", { name: "Phone" }).fill("555-0199");
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "Job-Admin" }).click();
      await dialog.getByRole("combobox", { name: "Company" }).fill("Pump");
      await page.getByRole("option", { name: "Pumpjack Services" }).click();
      // Keyboard: the box is a styled stand-in over the real (visually hidden) checkbox.
      await dialog.getByRole("checkbox", { name: "inspector" }).focus();
      await page.keyboard.press("Space");
      assert.equal(await dialog.getByRole("checkbox", { name: "inspector" }).isChecked(), true);
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("status").getByText("User created").waitFor();
      await dialog.waitFor({ state: "detached" });
      await table.getByRole("row", { name: /Dana Driller/ }).waitFor();
      const [created] = await find("dana@pumpjack.test");
      assert.equal(created.company.name, "Pumpjack Services");
      assert.equal(created.account_type, "Job-Admin");
      assert.deepEqual(created.permissions, ["inspector"]);
      assert.ok(await env.login("dana@pumpjack.test", "dana-secret-1"));

      // Search: debounced, kept in the URL.
      await page.getByRole("searchbox", { name: "Search for user" }).fill("dana");
      await table.getByRole("row", { name: /Someone Else/ }).waitFor({ state: "detached" });
      await page.waitForURL(/search_name=dana/);
      assert.equal(await table.getByRole("row").count(), 2);

      // Edit: email is fixed; a Data-Entry user shows the (empty) jobs.
      await table.getByRole("row", { name: /Dana Driller/ }).getByRole("button", { name: "Expand row" })
        .click();
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit User" });
      assert.equal(await dialog.getByRole("textbox", { name: "Email" }).isDisabled(), true);
      await dialog.getByRole("textbox", { name: "Phone" }).fill("555-0200");
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "Data-Entry" }).click();
      await dialog.getByText("No jobs yet").waitFor();
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("status").getByText("User updated").waitFor();
      await table.getByRole("cell", { name: "555-0200" }).waitFor();
      const [edited] = await find("dana@pumpjack.test");
      assert.equal(edited.phone, "555-0200");
      assert.equal(edited.account_type, "Data-Entry");
      assert.deepEqual(edited.jobs, []);

      // Delete, through the confirmation.
      const expand = table.getByRole("button", { name: "Expand row" });
      if (await expand.count()) await expand.click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this user?").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("User deleted").waitFor();
      await table.getByRole("row", { name: /Dana Driller/ }).waitFor({ state: "detached" });
      assert.deepEqual(await find("dana@pumpjack.test"), []);
    }),
);

browserTest(
  "users - the form shows the spec's validation messages and keeps Submit disabled",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeUser(env.tenant.db, {
        company_id: 1,
        email: "useradmin@acme.test",
        password: "useradmin-1",
        permissions: ["user-admin"],
      });
      await signIn("useradmin@acme.test", "useradmin-1", "/admin/accounts");
      await page.getByRole("button", { name: "Add User" }).click();
      const dialog = page.getByRole("dialog", { name: "Add User" });
      const submit = dialog.getByRole("button", { name: "Submit" });
      assert.equal(await submit.isDisabled(), true);

      // Tabbing through the empty form marks each field: every required message shows.
      await dialog.getByRole("textbox", { name: "Name" }).focus();
      for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
      for (
        const message of [
          "Name is Required",
          "Valid Email Address is Required",
          "Password must be at least 8 characters",
          "Phone number is Required",
          "Account Type is Required",
          "Company is required",
        ]
      ) await dialog.getByText(message).waitFor();
      assert.equal(await submit.isDisabled(), true);

      await dialog.getByRole("textbox", { name: "Email" }).fill("not-an-email");
      await dialog.getByText("Valid Email Address is Required").waitFor();
      await dialog.getByRole("textbox", { name: "Password", exact: true }).fill("short");
      await dialog.getByText("Password must be at least 8 characters").waitFor();

      // Only a superuser may grant superuser; a user-admin may force a password reset.
      assert.equal(await dialog.getByRole("checkbox", { name: "superuser" }).isDisabled(), true);
      assert.equal(await dialog.getByRole("checkbox", { name: "user-admin" }).isDisabled(), false);
      await dialog.getByRole("checkbox", { name: "Force Password Reset" }).waitFor();

      // Filling every field enables Submit; emptying one disables it again.
      await dialog.getByRole("textbox", { name: "Name" }).fill("Valid Person");
      await dialog.getByRole("textbox", { name: "Email" }).fill("valid@acme.test");
      await dialog.getByRole("textbox", { name: "Password", exact: true }).fill("long-enough");
      await dialog.getByRole("textbox", { name: "Phone" }).fill("555-0101");
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "General" }).click();
      await dialog.getByRole("combobox", { name: "Company" }).fill("Acme");
      await page.getByRole("option", { name: "Acme Inspections" }).click();
      assert.equal(await submit.isDisabled(), false);
      await dialog.getByRole("textbox", { name: "Phone" }).fill("");
      await dialog.getByText("Phone number is Required").waitFor();
      assert.equal(await submit.isDisabled(), true);
    }),
);
