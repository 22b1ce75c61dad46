import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCompany, makeUser } from "../../../db/factories.ts";
import { eq } from "drizzle-orm";
import { companies, users } from "../../../db/schema/mod.ts";
import { FIRST_ROWS_OF_ALL } from "../../lib/list_page.tsx";
import type { CompanyOut } from "../../../api/admin/companies/service.ts";

browserTest(
  "companies - an admin creates, searches, edits and deletes a company through the dialogs",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Other Oilfield Co" });
      const token = await env.login();
      const find = async (name: string) =>
        (await env.json<{ results: CompanyOut[] }>(
          `/api/admin/companies?search_name=${encodeURIComponent(name)}`,
          { token },
        )).results;
      await signIn(undefined, undefined, "/admin/companies");
      await page.getByRole("heading", { name: "Companies" }).waitFor();
      const table = page.getByRole("table", { name: "Companies" });

      // Create. Save (Enter) on an incomplete form names the missing field, at the field.
      await page.getByRole("button", { name: "New Company" }).click();
      let dialog = page.getByRole("dialog", { name: "New Company" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Wildcat Drilling");
      const save = dialog.getByRole("button", { name: "Save" });
      assert.equal(await save.isDisabled(), true, "dimmed while the type is missing");
      await dialog.getByRole("textbox", { name: "Name" }).press("Enter");
      await dialog.getByText("Check the fields marked above.").waitFor();
      const typeField = dialog.locator(".field", { has: page.getByRole("button", { name: /Company Type/ }) });
      await typeField.getByText("Required").waitFor();
      await dialog.getByRole("button", { name: /Company Type/ }).click();
      await page.getByRole("option", { name: "Operator" }).click();
      await dialog.getByRole("textbox", { name: "Address line 1" }).fill("12 Derrick Road");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Company created").waitFor();
      await dialog.waitFor({ state: "detached" });
      await table.getByRole("row", { name: /Wildcat Drilling/ }).waitFor();
      const [created] = await find("Wildcat");
      assert.equal(created.company_type, "operator_company");
      assert.equal(created.custom.address_line_1, "12 Derrick Road");

      // Search: Enter applies it, the URL keeps it, the other company is gone.
      const search = page.getByRole("searchbox", { name: "Search company name" });
      await search.fill("wildcat");
      await search.press("Enter");
      await table.getByRole("row", { name: /Other Oilfield Co/ }).waitFor({ state: "detached" });
      assert.match(page.url(), /search_name=wildcat/);
      assert.equal(await table.getByRole("row").count(), 2); // header + Wildcat

      // Edit: name and settings.
      const row = table.getByRole("row", { name: /Wildcat Drilling/ });
      await row.getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Company" });
      assert.equal(await dialog.getByRole("textbox", { name: "Name" }).inputValue(), "Wildcat Drilling");
      await dialog.getByRole("textbox", { name: "Name" }).fill("Wildcat Energy");
      await dialog.getByRole("textbox", { name: "Settings" }).fill('{"apps": ["sales"]}');
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Company updated").waitFor();
      await table.getByRole("row", { name: /Wildcat Energy/ }).waitFor();
      const [edited] = await find("Wildcat");
      assert.equal(edited.name, "Wildcat Energy");
      assert.deepEqual(edited.settings, { apps: ["sales"] });
      assert.equal(edited.custom.address_line_1, "12 Derrick Road");

      // Delete, through the confirmation.
      const expand = table.getByRole("button", { name: "Expand row" });
      if (await expand.count()) await expand.click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this company?").waitFor();
      await confirm.getByText("WARNING: This cannot be undone.").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Company deleted").waitFor();
      await table.getByText("No Companys Found").waitFor();
      assert.deepEqual(await find("Wildcat"), []);
    }),
);

browserTest(
  "companies - invalid settings JSON shows a message and saves nothing",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const sent: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/companies") && r.method() !== "GET") sent.push(r.method());
      });
      await signIn(undefined, undefined, "/admin/companies");
      await page.getByRole("button", { name: "New Company" }).click();
      const dialog = page.getByRole("dialog", { name: "New Company" });
      const save = dialog.getByRole("button", { name: "Save" });
      // Save stays disabled until the required fields are given.
      assert.equal(await save.isDisabled(), true);
      await dialog.getByRole("textbox", { name: "Name" }).fill("Broken Settings Ltd");
      await dialog.getByRole("textbox", { name: "Name" }).fill("");
      await dialog.getByText("Required").waitFor();
      await dialog.getByRole("textbox", { name: "Name" }).fill("Broken Settings Ltd");
      await dialog.getByRole("button", { name: /Company Type/ }).click();
      await page.getByRole("option", { name: "Customer" }).click();
      assert.equal(await save.isDisabled(), false);
      await dialog.getByRole("textbox", { name: "Settings" }).fill("{not json");
      await save.click();
      await dialog.getByText("Settings must be valid JSON (an object)").waitFor();
      await dialog.getByRole("textbox", { name: "Settings" }).fill("[1, 2]");
      await save.click();
      await dialog.getByText("Settings must be valid JSON (an object)").waitFor();
      // The check runs before any request is made: once its message shows, nothing was sent.
      assert.deepEqual(sent, []);
      const token = await env.login();
      const { total } = await env.json("/api/admin/companies?search_name=Broken", { token });
      assert.equal(total, 0);
    }),
);

browserTest(
  "companies - paging, page size and sorting update the table and the URL without a reload",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      for (let i = 0; i < 12; i++) {
        await makeCompany(env.tenant.db, { name: `Rig ${String(i).padStart(2, "0")}` });
      }
      await signIn(undefined, undefined, "/admin/companies");
      await page.evaluate(() => Object.assign(globalThis, { samePage: true }));
      const table = page.getByRole("table", { name: "Companies" });
      const pager = page.getByRole("navigation", { name: "Pagination" });
      await pager.getByText("1-10 of 13").waitFor();

      await pager.getByRole("link", { name: "Next page" }).click();
      await pager.getByText("11-13 of 13").waitFor();
      await table.getByRole("row", { name: /Rig 11/ }).waitFor();
      assert.match(page.url(), /page=2/);

      await table.getByRole("link", { name: "Company" }).click();
      await table.getByRole("columnheader", { name: "Company" }).and(page.locator("[aria-sort=descending]"))
        .waitFor();
      await pager.getByText("1-10 of 13").waitFor();
      // The sort shows at once; the rows follow when the refetch lands.
      await table.getByRole("row").nth(1).filter({ hasText: "Rig 11" }).waitFor();
      assert.match(await table.getByRole("row").nth(1).innerText(), /Rig 11/);
      assert.match(page.url(), /descending=true/);

      await pager.getByLabel("Rows per page").selectOption({ label: "All" });
      await pager.getByText("1-13 of 13").waitFor();
      assert.match(page.url(), /rowsPerPage=-1/);
      assert.equal(await page.evaluate(() => (globalThis as { samePage?: boolean }).samePage), true);

      // The URL alone renders the same state.
      await page.reload();
      await pager.getByText("1-13 of 13").waitFor();
      assert.match(await table.getByRole("row").nth(1).innerText(), /Rig 11/);
    }),
);

browserTest(
  "companies - a user without edit rights is offered no New, Edit or Delete; rights taken away meanwhile get the server's refusal in red",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Visible Customer" });
      const viewer = await makeUser(env.tenant.db, {
        company_id: 1,
        email: "viewer@acme.test",
        password: "viewer-pass-1",
      });
      await signIn("viewer@acme.test", "viewer-pass-1", "/admin/companies");
      const table = page.getByRole("table", { name: "Companies" });
      await table.getByRole("row", { name: /Visible Customer/ }).getByRole("button", { name: "Expand row" })
        .click();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await table.getByRole("button", { name: "Delete" }).count(), 0);
      assert.equal(await page.getByRole("button", { name: "New Company" }).count(), 0);

      // With user-admin the form opens; the right is taken away before Save: the server refuses, in red.
      await env.tenant.db.update(users).set({ permissions: ["user-admin"] }).where(eq(users.id, viewer.id));
      await page.goto(`${base}/admin/companies`);
      await page.getByRole("button", { name: "New Company" }).click();
      const dialog = page.getByRole("dialog", { name: "New Company" });
      assert.equal(await dialog.getByRole("textbox", { name: "Settings" }).count(), 0);
      await dialog.getByRole("textbox", { name: "Name" }).fill("Not Allowed Co");
      await dialog.getByRole("button", { name: /Company Type/ }).click();
      await page.getByRole("option", { name: "Customer" }).click();
      await env.tenant.db.update(users).set({ permissions: [] }).where(eq(users.id, viewer.id));
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("alert").getByText("You do not have permission to do that.").waitFor();
    }),
);

browserTest(
  "companies - by keyboard alone: New Company opens the form and Escape closes it; Delete asks first",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCompany(env.tenant.db, { name: "Keyboard Drilling" });
      await signIn(undefined, undefined, "/admin/companies");
      const table = page.getByRole("table", { name: "Companies" });

      await page.getByRole("button", { name: "New Company" }).focus();
      await page.keyboard.press("Enter");
      const form = page.getByRole("dialog", { name: "New Company" });
      await form.getByRole("textbox", { name: "Name" }).waitFor();
      await page.keyboard.press("Escape");
      await form.waitFor({ state: "detached" });

      await table.getByRole("row", { name: /Keyboard Drilling/ }).getByRole("button", { name: "Expand row" })
        .focus();
      await page.keyboard.press("Enter");
      await table.getByRole("button", { name: "Delete" }).focus();
      await page.keyboard.press("Enter");
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this company?").waitFor();
      // The safe answer has the focus: Enter now would keep the company.
      assert.equal(
        await confirm.getByRole("button", { name: "Cancel" }).evaluate((b) => b === document.activeElement),
        true,
      );
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
      const token = await env.login();
      assert.equal(
        (await env.json<{ total: number }>("/api/admin/companies?search_name=Keyboard", { token })).total,
        1,
      );

      // Confirmed, the row goes and the message shows.
      await table.getByRole("button", { name: "Delete" }).focus();
      await page.keyboard.press("Enter");
      await confirm.getByRole("button", { name: "Yes" }).focus();
      await page.keyboard.press("Enter");
      await table.getByRole("row", { name: /Keyboard Drilling/ }).waitFor({ state: "detached" });
      assert.equal(
        (await env.json<{ total: number }>("/api/admin/companies?search_name=Keyboard", { token })).total,
        0,
      );
    }),
);

browserTest(
  "companies - All on a long list renders its first rows, then the island fetches the rest",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await env.tenant.db.insert(companies).values(
        Array.from({ length: FIRST_ROWS_OF_ALL + 30 }, (_, i) => ({
          name: `Bulk ${String(i).padStart(3, "0")}`,
          company_type: "customer_company" as const,
        })),
      );
      const fetched: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/admin/companies")) fetched.push(r.url());
      });
      await signIn(undefined, undefined, "/admin/companies?rowsPerPage=-1");
      const table = page.getByRole("table", { name: "Companies" });
      await table.getByRole("row", { name: /Bulk 229/ }).waitFor();
      // every company and the header row
      assert.equal(await table.getByRole("row").count(), FIRST_ROWS_OF_ALL + 32);
      assert.equal(fetched.length, 1);
      assert.match(fetched[0], /rowsPerPage=-1/);
      assert.doesNotMatch(fetched[0], /firstRows/);
      assert.doesNotMatch(page.url(), /firstRows/);
    }),
);
