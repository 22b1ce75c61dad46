import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makePart } from "../../db/factories.ts";

browserTest(
  "lazy dialogs - a list page loads without its form; New Part shows 'Loading...' until the form's code comes, then the form works",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makePart(env.tenant.db, { name: "Swivel", manufacturer: "FMC" });
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
      });
      // The form's chunk is held back until the test lets it through, so the loading state can be seen.
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route(/\/assets\/PartForm-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });

      await signIn(undefined, undefined, "/pt/parts");
      await page.getByRole("table", { name: "Parts" }).getByRole("row", { name: /Swivel/ }).waitFor();
      assert.deepEqual(
        scripts.filter((s) => /PartForm|Confirm|FormDialog/.test(s)),
        [],
        "no dialog code at load",
      );

      await page.getByRole("button", { name: "New Part" }).click();
      await page.getByRole("dialog", { name: "Loading" }).waitFor();
      release();
      const dialog = page.getByRole("dialog", { name: "New Part" });
      await dialog.waitFor();
      await page.getByRole("dialog", { name: "Loading" }).waitFor({ state: "detached" });

      // The loaded form saves as before.
      await dialog.getByRole("textbox", { name: "Part Name" }).fill("Plug Valve");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Part created").waitFor();
      await page.getByRole("table", { name: "Parts" }).getByRole("row", { name: /Plug Valve/ }).waitFor();

      // Keyboard: the delete confirmation (also loaded on demand) opens from the row and Escape closes it.
      const row = page.getByRole("table", { name: "Parts" }).getByRole("row", { name: /Plug Valve/ });
      await row.getByRole("button", { name: "Expand row" }).click();
      await page.getByRole("button", { name: "Delete" }).focus();
      await page.keyboard.press("Enter");
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.waitFor();
      await page.keyboard.press("Escape");
      await confirm.waitFor({ state: "detached" });
    }),
);
