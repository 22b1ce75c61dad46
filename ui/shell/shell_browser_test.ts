import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { ADMIN } from "../../scripts/testing/harness.ts";
import { makeUser } from "../../db/factories.ts";

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
  "welcome - greets the user, offers Sales & Inventory per settings, logs out",
  () =>
    withBrowser(async ({ page, signIn }) => {
      await signIn();
      await page.getByRole("heading", { name: "Welcome Administrator!" }).waitFor();
      await page.getByText("Choose an app:").waitFor();
      const sales = page.getByRole("link", { name: "Sales & Inventory" });
      assert.equal(await sales.getAttribute("href"), "/sales/tickets");
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
      await dialog.getByRole("button", { name: "Submit" }).click();
      await page.waitForLoadState("load");
      await page.getByRole("heading", { name: /Welcome/ }).waitFor();
      await page.waitForTimeout(300);
      assert.equal(await page.getByRole("alertdialog").count(), 0);
      // The new password works; the old one no longer does.
      const token = await env.login(u.email, "brand-new-password");
      assert.ok(token);
    }),
);
