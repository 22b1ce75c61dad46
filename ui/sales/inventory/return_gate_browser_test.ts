import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeJob } from "../../../db/factories.ts";
import { rowOf } from "../../../api/sales/lines/checkin_fixtures.ts";
import { rentedUnit, setGate } from "../../../api/sales/inventory/return_gate_fixtures.ts";

browserTest(
  "return gate - a unit checked in goes to Repair, and a passing inspection makes it Available",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await setGate(env, await env.login(), true);
      const s = await rentedUnit(env, "GATE-1");
      const job = await makeJob(env.tenant.db, { job_number: "J-7001" });
      await signIn(undefined, undefined, `/sales/tickets/${s.ticketId}`);

      await page.getByRole("button", { name: "Check-In" }).click();
      await page.getByRole("note").getByText(/Return gate: serialized units checked in go to Repair/)
        .waitFor();
      await page.getByLabel("Quantity in GATE-1").fill("1");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      await page.getByRole("status")
        .getByText("Checked in 1 line; 1 in Repair awaiting inspection (return gate)").waitFor();

      await page.goto(new URL("/sales/serialized-inventory", page.url()).href);
      const table = page.getByRole("table", { name: "Serialized Inventory" });
      const row = table.getByRole("row", { name: /GATE-1/ });
      await row.getByText("Repair").waitFor();
      await row.getByText("awaiting inspection").waitFor();

      await page.goto(new URL(`/pt/inspection?job_id=${job.id}`, page.url()).href);
      await page.waitForSelector("body[data-hydrated]", { state: "attached" });
      await page.getByRole("button", { name: "Enter new inspection" }).click();
      const dialog = page.getByRole("dialog", { name: "New Inspection" });
      await dialog.getByRole("textbox", { name: "Serial Number" }).fill("gate-1");
      await dialog.getByRole("group", { name: "Pass Visual?" }).getByRole("radio", { name: "Yes" }).check();
      await dialog.getByRole("button", { name: /MPI Result/ }).click();
      await page.getByRole("option", { name: "Pass", exact: true }).click();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status").getByText("Inspection created; 1 released from Repair").waitFor();

      await page.goto(new URL("/sales/serialized-inventory", page.url()).href);
      await row.getByText("Available").waitFor();
      assert.equal(await row.getByText("awaiting inspection").count(), 0);
      assert.equal((await rowOf(env, s.inventoryId))!.status, "Available");
    }),
);
