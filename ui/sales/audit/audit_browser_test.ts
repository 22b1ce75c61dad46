import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { makeRow, makeUnit, send } from "../../../api/sales/inventory/test_fixtures.ts";

browserTest(
  "audit - transfers show up in the audit log, filtered by serial number from the URL",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const token = await env.login();
      const midland = await makeUnit(env, ["Yard A", "Yard B"], "Midland");
      const odessa = await makeUnit(env, [], "Odessa");
      const row = await makeRow(env, {
        business_unit_id: midland.id,
        serial_number: "SW3-MID",
        quantity: 40,
      });
      const other = await makeRow(env, {
        business_unit_id: midland.id,
        serial_number: "TEE-MID",
        quantity: 8,
      });
      await send(env, token, "POST", "/api/sales/inventory/location-transfer", {
        inventory_id: row.id,
        fromLocation: "Base",
        toLocation: "Yard A",
        quantity: 10,
      });
      await send(env, token, "POST", "/api/sales/inventory/business-unit-transfer", {
        inventory_id: row.id,
        to_business_unit_id: odessa.id,
        quantity: 5,
      });
      await send(env, token, "POST", "/api/sales/inventory/location-transfer", {
        inventory_id: other.id,
        fromLocation: "Base",
        toLocation: "Yard B",
        quantity: 2,
      });

      await signIn(undefined, undefined, "/sales/inventory-audit?serial_number=SW3-MID");
      await page.getByRole("heading", { name: "Inventory Audit" }).waitFor();
      assert.equal(await page.getByRole("searchbox", { name: "Serial Number" }).inputValue(), "SW3-MID");
      const table = page.getByRole("table", { name: "Inventory Audit" });
      const rows = table.locator("tbody tr");
      assert.equal(await rows.count(), 3);
      // Newest first: both sides of the unit transfer, then the move to Yard A.
      const transferIn = table.getByRole("row", { name: /Business Unit Transfer In/ });
      await transferIn.getByText("Odessa").waitFor();
      await transferIn.getByText("5 (+5)").waitFor();
      const transferOut = table.getByRole("row", { name: /Business Unit Transfer Out/ });
      await transferOut.getByText("35 (-5)").waitFor();
      await transferOut.getByText("Yard A: 10").waitFor();
      await table.getByRole("row", { name: /Location Transfer/ }).getByText("Midland").waitFor();
      assert.doesNotMatch(await table.innerText(), /TEE-MID/);
      // Action times are written in the browser: MM-DD-YY HH:mm.
      assert.match(await rows.first().locator("time").innerText(), /^\d{2}-\d{2}-\d{2} \d{2}:\d{2}$/);

      // Another serial number, typed: the table and the address follow once typing settles.
      const serial = page.getByRole("searchbox", { name: "Serial Number" });
      await serial.fill("TEE");
      await table.getByText("TEE-MID").waitFor();
      await page.waitForURL((u) => u.searchParams.get("serial_number") === "TEE");
      assert.equal(await rows.count(), 1);
      await serial.fill("");
      await page.getByRole("searchbox", { name: "Ticket Number" }).fill("T-404");
      await table.getByText("No Data Found").waitFor();
    }),
);
