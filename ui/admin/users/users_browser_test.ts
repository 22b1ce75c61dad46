import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeJob, makeUser } from "../../../db/factories.ts";
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
      await dialog.getByRole("checkbox", { name: "Inspector" }).focus();
      await page.keyboard.press("Space");
      assert.equal(await dialog.getByRole("checkbox", { name: "Inspector" }).isChecked(), true);
      // Roles read as labels with what each allows (the wire keeps "inspector").
      const described = await dialog.getByRole("checkbox", { name: "Inspector" }).getAttribute(
        "aria-describedby",
      );
      assert.equal(await page.locator(`[id="${described}"]`).innerText(), "Enters inspections and batches.");
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

      // Edit: email is fixed; a Data-Entry user shows the jobs picker (none chosen).
      await table.getByRole("row", { name: /Dana Driller/ }).getByRole("button", { name: "Expand row" })
        .click();
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit User" });
      assert.equal(await dialog.getByRole("textbox", { name: "Email" }).isDisabled(), true);
      await dialog.getByRole("textbox", { name: "Phone" }).fill("555-0200");
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "Data-Entry" }).click();
      await dialog.getByRole("combobox", { name: "Jobs" }).waitFor();
      // A Data-Entry user needs jobs: Submit says so at the field instead of saving (or doing nothing).
      const submit = dialog.getByRole("button", { name: "Submit" });
      assert.equal(await submit.getAttribute("aria-disabled"), "true");
      await submit.dispatchEvent("click");
      await dialog.getByText("Choose at least one job for a Data-Entry user").waitFor();
      await dialog.getByText("Check the fields marked above.").waitFor();
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "General" }).click();
      await submit.click();
      await page.getByRole("status").getByText("User updated").waitFor();
      await table.getByRole("cell", { name: "555-0200" }).waitFor();
      const [edited] = await find("dana@pumpjack.test");
      assert.equal(edited.phone, "555-0200");
      assert.equal(edited.account_type, "General");
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
      assert.equal(await dialog.getByRole("checkbox", { name: "Superuser" }).isDisabled(), true);
      assert.equal(await dialog.getByRole("checkbox", { name: "User admin" }).isDisabled(), false);
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

browserTest(
  "users - a Data-Entry user gets jobs picked from real jobs",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const first = await makeJob(env.tenant.db, { job_number: "PT-100", date: "2025-03-04" });
      const second = await makeJob(env.tenant.db, { job_number: "PT-200", date: "2025-03-09" });
      await makeJob(env.tenant.db, { job_number: "XX-300" });
      await makeCompany(env.tenant.db, { name: "Pumpjack Services" });
      await makeUser(env.tenant.db, { company_id: 1, name: "Dee Entry", email: "dee@acme.test" });
      const token = await env.login();
      const dee = async () =>
        (await env.json<{ results: CurrentUser[] }>("/api/admin/users?search_name=dee@acme.test", { token }))
          .results[0];
      await signIn(undefined, undefined, "/admin/accounts?search_name=dee");
      const table = page.getByRole("table", { name: "Users" });
      const openEdit = async () => {
        const expand = table.getByRole("row", { name: /Dee Entry/ }).getByRole("button", {
          name: "Expand row",
        });
        if (await expand.count()) await expand.click();
        await table.getByRole("button", { name: "Edit" }).click();
        return page.getByRole("dialog", { name: "Edit User" });
      };

      // Pick two jobs by job number; chosen jobs are not offered again.
      let dialog = await openEdit();
      assert.equal(await dialog.getByRole("combobox", { name: "Jobs" }).count(), 0);
      await dialog.getByRole("button", { name: /Account Type/ }).click();
      await page.getByRole("option", { name: "Data-Entry" }).click();
      const jobs = dialog.getByRole("combobox", { name: "Jobs" });
      await jobs.click();
      await page.getByRole("listbox").getByText("Type to begin searching").waitFor();
      await jobs.fill("pt-");
      await page.getByRole("option", { name: "PT-100 · 03-04-2025" }).waitFor();
      assert.equal(await page.getByRole("option", { name: /XX-300/ }).count(), 0);
      await page.getByRole("option", { name: "PT-100 · 03-04-2025" }).click();
      assert.equal(await jobs.inputValue(), "");
      // The chip shows at once (the open list hides the rest of the dialog from assistive technology).
      await dialog.getByText("PT-100 · 03-04-2025").waitFor();
      await jobs.fill("pt-");
      await page.getByRole("option", { name: "PT-200 · 03-09-2025" }).waitFor();
      assert.equal(await page.getByRole("option", { name: /PT-100/ }).count(), 0);
      await page.getByRole("option", { name: "PT-200 · 03-09-2025" }).click();
      await page.keyboard.press("Escape");
      const chips = dialog.getByRole("grid", { name: "Chosen jobs" });
      await chips.getByRole("row", { name: /PT-200 · 03-09-2025/ }).waitFor();
      await chips.getByRole("row", { name: /PT-100 · 03-04-2025/ }).waitFor();
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("status").getByText("User updated").waitFor();
      await dialog.waitFor({ state: "detached" });
      assert.deepEqual((await dee()).jobs.toSorted(), [first.id, second.id].toSorted());
      // The table has refetched the saved user before the form is opened again from its row.
      await table.getByRole("row", { name: /Dee Entry/ }).getByRole("cell", { name: "Data-Entry" }).waitFor();

      // Reopened, the chips name the chosen jobs; one is removed.
      dialog = await openEdit();
      await chips.getByRole("row", { name: /PT-100 · 03-04-2025/ }).waitFor();
      await chips.getByRole("button", { name: /Remove PT-200/ }).click();
      await chips.getByRole("row", { name: /PT-200/ }).waitFor({ state: "detached" });

      // Jobs of another company than the user's are refused: the server's message shows under the field.
      const company = dialog.getByRole("combobox", { name: "Company" });
      await company.fill("Pump");
      await page.getByRole("option", { name: "Pumpjack Services" }).click();
      await dialog.getByRole("button", { name: "Submit" }).click();
      await dialog.getByText("Unknown job").waitFor();
      await company.fill("Acme");
      await page.getByRole("option", { name: "Acme Inspections" }).click();
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("status").getByText("User updated").waitFor();
      assert.deepEqual((await dee()).jobs, [first.id]);
      assert.equal((await dee()).company.name, "Acme Inspections");
    }),
);

browserTest(
  "users - an admin logs a user out everywhere from their row: that user's sessions end",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const lost = await makeUser(env.tenant.db, {
        company_id: 1,
        name: "Lost Phone",
        password: "lost-phone-1",
      });
      const phone = await env.login(lost.email, "lost-phone-1");
      await env.json("/api/admin/users/me", { token: phone });
      await signIn(undefined, undefined, "/admin/accounts?search_name=Lost");
      const table = page.getByRole("table", { name: "Users" });
      await table.getByRole("row", { name: /Lost Phone/ }).getByRole("button", { name: "Expand row" })
        .click();
      await table.getByRole("button", { name: "Log out everywhere" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText(/Sign Lost Phone out on every device/).waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("User signed out everywhere").waitFor();
      await env.json("/api/admin/users/me", { token: phone, status: 401 });
    }),
);
