import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { companies, tickets } from "../../../db/schema/mod.ts";

browserTest(
  "ticket required fields - the settings' required fields are said at the field, Save waits, the edit keeps them",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const db = env.tenant.db;
      await db.update(companies).set({
        settings: { Sales: { ticketRequired: ["business_unit_id", "location"] } },
      })
        .where(eq(companies.isOwner, true));
      await makeCompany(db, { name: "Permian Energy" });
      const { user: rep } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true });
      await makeCategory(db, { model: "Business Unit", name: "Odessa Yard" });

      await signIn(rep.email, "password123", "/sales/tickets");
      await page.getByRole("button", { name: "New Ticket" }).click();
      const dialog = page.getByRole("dialog", { name: "New Ticket" });
      const save = dialog.getByRole("button", { name: "Save" });
      await dialog.getByRole("combobox", { name: "Customer" }).fill("Permian");
      await page.getByRole("option", { name: "Permian Energy" }).click();
      await dialog.getByRole("combobox", { name: "Sales Rep" }).fill("Rita");
      await page.getByRole("option", { name: "Rita Rep" }).click();
      assert.equal(await save.isDisabled(), true, "Business Unit and Location are still empty");
      // Save stays reachable by keyboard and says why nothing is sent.
      await save.focus();
      await page.keyboard.press("Enter");
      await dialog.getByRole("status").getByText("Check the fields marked above.").waitFor();
      await dialog.getByText("Business Unit is required").waitFor();
      await dialog.getByText("Location is required").waitFor();
      assert.equal(await dialog.getByText("Tax is required").count(), 0, "only the settings' fields");
      assert.equal(await db.$count(tickets), 0, "nothing was sent");

      await dialog.getByRole("combobox", { name: "Business Unit" }).fill("Odessa");
      await page.getByRole("option", { name: "Odessa Yard" }).click();
      await dialog.getByRole("textbox", { name: "Location" }).fill("Pad 7");
      await dialog.getByText("Location is required").waitFor({ state: "detached" });
      assert.equal(await save.isDisabled(), false);
      await save.click();
      await page.getByRole("status").getByText("Ticket created: T-00001").waitFor();

      // The ticket's own form says the same before its Save.
      const [ticket] = await db.select().from(tickets);
      await page.goto(new URL(`/sales/tickets/${ticket.id}`, page.url()).href);
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", { name: "Edit Ticket" })
        .click();
      const form = page.getByRole("dialog", { name: "Edit Ticket" });
      const location = form.getByRole("textbox", { name: "Location" });
      await location.fill("");
      await location.blur();
      await form.getByText("Location is required").waitFor();
      assert.equal(await form.getByRole("button", { name: "Save" }).isDisabled(), true);
    }),
);
