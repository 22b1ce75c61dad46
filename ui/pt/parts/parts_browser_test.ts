import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeInspection, makePart, makeUser } from "../../../db/factories.ts";
import type { PartOut } from "../../../api/pt/parts/schemas.ts";

browserTest(
  "parts - a part-admin creates, searches, edits and deletes a part",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makePart(env.tenant.db, { name: "Other Swivel", manufacturer: "FMC" });
      const token = await env.login();
      const find = async (name: string) =>
        (await env.json<{ results: PartOut[] }>(
          `/api/pt/parts?search_name=${encodeURIComponent(name)}`,
          { token },
        )).results;
      await signIn(undefined, undefined, "/pt/parts");
      await page.getByRole("heading", { name: "Parts" }).waitFor();
      const table = page.getByRole("table", { name: "Parts" });

      // Create.
      await page.getByRole("button", { name: "New Part" }).click();
      let dialog = page.getByRole("dialog", { name: "New Part" });
      await dialog.getByRole("textbox", { name: "Part Name" }).fill("3in Plug Valve");
      await dialog.getByRole("textbox", { name: "Part Desc." }).fill("1502 hammer union");
      await dialog.getByRole("textbox", { name: "Manufacturer" }).fill("SPM");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Part created").waitFor();
      await dialog.waitFor({ state: "detached" });
      await table.getByRole("row", { name: /3in Plug Valve/ }).waitFor();
      const [created] = await find("3in Plug");
      assert.deepEqual([created.description, created.manufacturer], ["1502 hammer union", "SPM"]);

      // Search: Tab (blur) applies it, the URL keeps it, the other part is gone.
      const search = page.getByRole("searchbox", { name: "Search part name" });
      await search.fill("plug");
      await search.press("Tab");
      await table.getByRole("row", { name: /Other Swivel/ }).waitFor({ state: "detached" });
      assert.match(page.url(), /search_name=plug/);
      assert.equal(await table.getByRole("row").count(), 2); // header + the plug valve

      // Edit.
      await table.getByRole("row", { name: /3in Plug Valve/ }).getByRole("button", { name: "Expand row" })
        .click();
      await table.getByRole("button", { name: "Edit" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Part" });
      const name = dialog.getByRole("textbox", { name: "Part Name" });
      assert.equal(await name.inputValue(), "3in Plug Valve");
      await name.fill("3in Plug Valve XL");
      await dialog.getByRole("textbox", { name: "Manufacturer" }).fill("Kemper");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Part updated").waitFor();
      await table.getByRole("row", { name: /3in Plug Valve XL/ }).waitFor();
      const [edited] = await find("3in Plug");
      assert.deepEqual([edited.name, edited.manufacturer, edited.description], [
        "3in Plug Valve XL",
        "Kemper",
        "1502 hammer union",
      ]);

      // Delete, through the confirmation.
      const expand = table.getByRole("button", { name: "Expand row" });
      if (await expand.count()) await expand.click();
      await table.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Please confirm" });
      await confirm.getByText("Are you sure you want to delete this part?").waitFor();
      await confirm.getByRole("button", { name: "Yes" }).click();
      await page.getByRole("status").getByText("Part deleted").waitFor();
      await table.getByText("No Parts Found").waitFor();
      assert.deepEqual(await find("3in Plug"), []);
    }),
);

browserTest(
  "parts - a part in use is refused with the server's message; a General user has no Edit or Delete",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const part = await makePart(env.tenant.db, { name: "Used Tee" });
      await makeInspection(env.tenant.db, { part_id: part.id });
      await makeUser(env.tenant.db, { company_id: 1, email: "tech@acme.test", password: "tech-pass-1" });

      await signIn(undefined, undefined, "/pt/parts");
      const table = page.getByRole("table", { name: "Parts" });
      await table.getByRole("row", { name: /Used Tee/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("dialog", { name: "Please confirm" }).getByRole("button", { name: "Yes" }).click();
      await page.getByRole("alert").getByText("This part is used by inspections.").waitFor();
      await table.getByRole("row", { name: /Used Tee/ }).waitFor();

      await page.context().clearCookies();
      await signIn("tech@acme.test", "tech-pass-1", "/pt/parts");
      await table.getByRole("row", { name: /Used Tee/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByText("Manufacturer", { exact: true }).last().waitFor();
      assert.equal(await table.getByRole("button", { name: "Edit" }).count(), 0);
      assert.equal(await table.getByRole("button", { name: "Delete" }).count(), 0);
      await page.getByRole("button", { name: "New Part" }).click();
      const dialog = page.getByRole("dialog", { name: "New Part" });
      await dialog.getByRole("textbox", { name: "Part Name" }).fill("Tech's Part");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Part created").waitFor();
      await table.getByRole("row", { name: /Tech's Part/ }).waitFor();
    }),
);
