import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { makeItemOf, makeRow, makeUnit, send } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/templates";

async function unitWithTemplates(env: TestEnv, token: string, name: string, templates: string[]) {
  const unit = await makeUnit(env, [], name);
  const row = async (type: "Charge Code" | "Itemized", serial: string, number: string) =>
    makeRow(env, {
      business_unit_id: unit.id,
      serial_number: serial,
      item_id:
        (await makeItemOf(env, type, { item_number: `${number}-${name}`, item_description: number })).id,
    });
  const mileage = await row("Charge Code", "", "Mileage");
  const tee = await row("Itemized", `${name}-TEE`, "Tee");
  for (const t of templates) {
    await send(env, token, "POST", PATH, {
      name: t,
      business_unit_id: unit.id,
      inventory_ids: [tee.id, mileage.id],
    });
  }
  return unit;
}

Deno.test("templates download - the chosen unit's templates as the list orders them, every row, real cells", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const unit = await unitWithTemplates(env, token, "Midland", ["Rig-up", "Flowback", "Zeta"]);
    await unitWithTemplates(env, token, "Odessa", ["Other unit"]);

    const res = await env.request(
      `${PATH}/download?search_business_unit=${unit.id}&page=-1&sortBy=name&descending=true&search_name=a`,
      { token },
    );
    assert.equal(res.status, 200);
    assert.match(
      res.headers.get("content-disposition") ?? "",
      /filename="Templates-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const sheet = wb.worksheets[0];
    const rows: unknown[][] = [];
    sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], [
      "Name",
      "Business Unit",
      "Items",
      "Inventory, in order",
      "Created At",
      "Updated At",
    ]);
    assert.deepEqual(
      rows.slice(1).map((r) => r.slice(0, 4)),
      [
        ["Zeta", "Midland", 2, "Tee-Midland | Midland-TEE | Tee; Mileage-Midland | Mileage"],
        ["Flowback", "Midland", 2, "Tee-Midland | Midland-TEE | Tee; Mileage-Midland | Mileage"],
      ],
      "the name search and the order of the list; the other unit's template is not there",
    );
    const items = sheet.getCell("C2");
    assert.equal(items.type, ExcelJS.ValueType.Number, "Items is a number cell");
    const created = sheet.getCell("E2");
    assert.equal(created.type, ExcelJS.ValueType.Date, "Created At is a date cell");
    assert.equal(created.numFmt, "mm-dd-yyyy hh:mm");
    assert.equal(sheet.getCell("F2").type, ExcelJS.ValueType.Date);

    // Without a unit the list shows nothing to download: a field error, not an empty file.
    const none = await env.json(`${PATH}/download`, { token, status: 422 });
    assert.deepEqual(none.errors, [{ path: "search_business_unit", message: "Business Unit is required" }]);
    // The list's refusal holds: outside the owner company, 403.
    const outsider = await env.userWithToken({ company_id: (await makeCompany(env.tenant.db)).id });
    await env.json(`${PATH}/download?search_business_unit=${unit.id}`, {
      token: outsider.token,
      status: 403,
    });
  }));
