import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeCompany } from "../../../db/factories.ts";
import { sub_categories, taxes } from "../../../db/schema/mod.ts";

async function sheet(res: Response): Promise<{ name: string; rows: unknown[][] }> {
  assert.equal(res.status, 200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer() as never);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "";
  return { name: name.replace(/\d{4}-\d{2}-\d{2}/, "DATE"), rows };
}

Deno.test("catalogue downloads - taxes, each category list and sub product lines as the lists show them, every row", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    await makeCategory(db, {
      model: "Business Unit",
      name: "Odessa Yard",
      notes: "West",
      custom: { locations: ["Rack A", "Rack B"] },
    });
    for (let i = 0; i < 25; i++) await makeCategory(db, { model: "Item Category", name: `Cat ${i}` });
    const line = await makeCategory(db, { model: "Product Line", name: "Flowback" });
    await db.insert(sub_categories).values({
      company_id: 1,
      category_id: line.id,
      name: "Sand traps",
      notes: "",
    });
    await db.insert(taxes).values({
      company_id: 1,
      name: "Ector",
      state: "TX",
      state_rate: 6.25,
      rate: 6.25,
    });

    const units = await sheet(
      await env.request("/api/sales/categories/download?model=Business%20Unit&page=-1", { token }),
    );
    assert.equal(units.name, "Business-Units-DATE.xlsx");
    assert.deepEqual(units.rows, [["Name", "Notes", "Locations"], ["Odessa Yard", "West", "Rack A; Rack B"]]);
    const cats = await sheet(
      await env.request("/api/sales/categories/download?model=Item%20Category&rowsPerPage=20", { token }),
    );
    assert.equal(cats.name, "Item-Categories-DATE.xlsx");
    assert.equal(cats.rows.length, 26, "every row, not the screen's page of 20");
    assert.deepEqual(cats.rows[0], ["Name", "Notes"]);

    const subs = await sheet(await env.request("/api/sales/sub_categories/download", { token }));
    assert.equal(subs.name, "Sub-Product-Lines-DATE.xlsx");
    assert.deepEqual(subs.rows[1].slice(0, 2), ["Sand traps", "Flowback"]);

    const tax = await sheet(await env.request("/api/sales/taxes/download?search_state=TX", { token }));
    assert.equal(tax.name, "Taxes-DATE.xlsx");
    assert.deepEqual(tax.rows[1].slice(0, 5), ["Ector", "TX", "", "", 6.25]);

    // The lists' refusals hold for their downloads: outside the owner company, 403; a model is required.
    const outsider = await env.userWithToken({ company_id: (await makeCompany(db)).id });
    for (const path of ["/api/sales/taxes/download", "/api/sales/sub_categories/download"]) {
      await env.json(path, { token: outsider.token, status: 403 });
    }
    await env.json("/api/sales/categories/download", { token, status: 422 });
  }));
