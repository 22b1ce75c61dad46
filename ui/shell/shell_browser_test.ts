import assert from "node:assert/strict";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import { ADMIN } from "../../scripts/testing/harness.ts";
import { makeCompany, makeJob, makeUser } from "../../db/factories.ts";

browserTest(
  "sign in - a signed-out visit is redirected to sign in and returns to the remembered path",
  () =>
    withBrowser(async ({ page, base, signIn }) => {
      await page.goto(`${base}/admin/accounts?page=1`);
      assert.match(page.url(), /\/signin\?next=%2Fadmin%2Faccounts%3Fpage%3D1$/);
      await signIn(ADMIN.email, ADMIN.password, "/admin/accounts?page=1");
      assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, "/admin/accounts?page=1");
      // A signed-in visit to /signin goes on to the target.
      await page.goto(`${base}/signin?next=%2F`);
      assert.equal(new URL(page.url()).pathname, "/");
      await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    }),
);

browserTest(
  "sign in - wrong password shows the server's message and stays on the form",
  () =>
    withBrowser(async ({ page, base }) => {
      await page.goto(`${base}/signin`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill("wrong-password");
      await page.getByRole("button", { name: "Sign In" }).click();
      await page.getByRole("alert").filter({ hasText: "Incorrect email or password" }).waitFor();
      assert.match(page.url(), /\/signin/);
    }),
);

browserTest(
  "welcome - greets the user, offers Pressure Testing and Sales & Inventory per settings, logs out",
  () =>
    withBrowser(async ({ page, signIn }) => {
      await signIn();
      await page.getByRole("heading", { name: "Welcome Administrator!" }).waitFor();
      await page.getByText("Choose an app:").waitFor();
      const sales = page.getByRole("main").getByRole("link", { name: "Sales & Inventory" });
      assert.equal(await sales.getAttribute("href"), "/sales/tickets");
      const pt = page.getByRole("main").getByRole("link", { name: "Pressure Testing" });
      assert.equal(await pt.getAttribute("href"), "/pt/jobs");
      await page.getByRole("button", { name: "Log out", exact: true }).click();
      await page.waitForURL(/\/signin/);
    }),
);

browserTest(
  "not found - an unknown page answers 404 with 'Error - page not found'",
  () =>
    withBrowser(async ({ page, base, signIn }) => {
      await signIn();
      const res = await page.goto(`${base}/no/such/page`);
      assert.equal(res?.status(), 404);
      await page.getByRole("heading", { name: "Error - page not found" }).waitFor();
    }),
);

browserTest(
  "password reset - a flagged user must set a new password before going on",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const u = await makeUser(env.tenant.db, {
        company_id: 1,
        passwordReset: true,
        password: "old-password",
      });
      await signIn(u.email, "old-password");
      const dialog = page.getByRole("alertdialog", { name: "Please update your password" });
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel("Name").isDisabled(), true);
      await dialog.getByLabel("Password").fill("short");
      await dialog.getByText("Password must be at least 8 characters").waitFor();
      assert.equal(await dialog.getByRole("button", { name: "Submit" }).isDisabled(), true);
      await dialog.getByLabel("Password").fill("brand-new-password");
      // Meanwhile an admin renames the account: the save does not put the old name back, and it is told
      // the record changed (If-Match) and goes through when sent again.
      const admin = await env.login();
      const [current] = (await env.json<{ results: { id: number; version: number }[] }>(
        `/api/admin/users?search_name=${encodeURIComponent(u.email)}`,
        { token: admin },
      )).results;
      await env.json("/api/admin/users", {
        method: "POST",
        token: admin,
        json: {
          id: u.id,
          name: "Renamed By Admin",
          email: u.email,
          phone: u.phone,
          account_type: u.account_type,
          company_id: 1,
          passwordReset: true,
        },
        headers: { "if-match": `"${current.version}"` },
      });
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Your account was changed meanwhile").waitFor();
      await dialog.getByRole("button", { name: "Submit" }).click();
      // The page loads again and says so; the dialog is gone.
      await page.getByRole("status").getByText("Password updated").waitFor();
      await page.getByRole("heading", { name: /Welcome/ }).waitFor();
      assert.equal(await page.getByRole("alertdialog").count(), 0);
      // The new password works; the admin's rename stands.
      const token = await env.login(u.email, "brand-new-password");
      assert.ok(token);
      const [after] = (await env.json<{ results: { name: string; passwordReset: boolean }[] }>(
        `/api/admin/users?search_name=${encodeURIComponent(u.email)}`,
        { token: admin },
      )).results;
      assert.equal(after.name, "Renamed By Admin");
      assert.equal(after.passwordReset, false);
    }),
);

browserTest(
  "apps - every app the user may use is on the welcome page and in the drawer, from either app",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      await signIn(undefined, undefined, "/sales/tickets");
      const drawer = page.getByRole("navigation", { name: "Sales & Inventory menu" });
      await drawer.getByRole("link", { name: "Pressure Testing" }).click();
      await page.waitForURL(/\/pt\/jobs$/);
      const ptDrawer = page.getByRole("navigation", { name: "Pressure Testing menu" });
      await ptDrawer.getByRole("link", { name: "Sales & Inventory" }).click();
      await page.waitForURL(/\/sales\/tickets$/);
      // Apps from Sales: the welcome page offers both.
      await page.getByRole("link", { name: "Apps" }).first().click();
      await page.getByText("Choose an app:").waitFor();
      await page.getByRole("main").getByRole("link", { name: "Pressure Testing" }).click();
      await page.waitForURL(/\/pt\/jobs$/);

      // A customer's user (their company's settings list no apps): Pressure Testing only; Sales is shown
      // disabled with the reason, and their drawer has no dead end.
      const customer = await makeCompany(env.tenant.db, {
        name: "Bluestem",
        company_type: "customer_company",
      });
      const u = await makeUser(env.tenant.db, { company_id: customer.id, password: "customer-pass-1" });
      await page.context().clearCookies();
      await signIn(u.email, "customer-pass-1");
      const sales = page.getByRole("main").getByRole("link", { name: "Sales & Inventory" });
      assert.equal(await sales.getAttribute("aria-disabled"), "true");
      await page.getByText("Not enabled for your company.").waitFor();
      await page.goto(`${base}/pt/jobs`);
      const links = await page.getByRole("navigation", { name: "Pressure Testing menu" }).getByRole("link")
        .allInnerTexts();
      assert.equal(links.includes("Sales & Inventory"), false, links.join());
    }),
);

browserTest(
  "drawer - the collapsed drawer is rendered collapsed after a reload, before any script runs",
  () =>
    withBrowser(async ({ page, base, signIn, hydrated }) => {
      await signIn(undefined, undefined, "/pt/jobs");
      const served = () =>
        page.evaluate(
          async (url) => (await (await fetch(url)).text()).match(/<body[^>]*>/)![0],
          `${base}/pt/jobs`,
        );
      assert.doesNotMatch(await served(), /drawer-mini/);
      await page.getByRole("button", { name: "Toggle menu" }).click();
      assert.match(await served(), /<body class="drawer-mini">/);
      await page.reload();
      await hydrated();
      assert.equal(await page.evaluate(() => document.body.classList.contains("drawer-mini")), true);
      await page.getByRole("button", { name: "Toggle menu" }).click();
      assert.doesNotMatch(await served(), /drawer-mini/);
    }, { width: 1366 }),
);

browserTest(
  "pager - a page past the end says so and leads back to the last page",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      for (let i = 1; i <= 12; i++) await makeJob(env.tenant.db, { job_number: `PG-${i}` });
      await signIn(undefined, undefined, "/pt/jobs");
      await page.goto(`${base}/pt/jobs?page=27&rowsPerPage=10`);
      await hydrated();
      await page.getByText("Page 27 is past the end: there are 12 in all.").waitFor();
      const pager = page.getByRole("navigation", { name: "Pagination" });
      await pager.getByText("0 of 12").waitFor();
      await pager.getByRole("link", { name: "Go to the last page (2)" }).click();
      await page.getByText("11-12 of 12").waitFor();
      await page.waitForURL((u) => u.searchParams.get("page") === "2");
      // The header and the two jobs of page 2 (the rows may follow the pager's figures by a moment).
      await eventually(async () =>
        assert.equal(await page.getByRole("table", { name: "Jobs" }).getByRole("row").count(), 3)
      );
    }, { width: 390 }),
);
