import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { crop, rasterPage, readQr } from "../../../scripts/testing/qr_image.ts";
import { companies } from "../../../db/schema/mod.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeCompany } from "../../../db/factories.ts";
import { LABEL_SHEETS, MAX_LABELS } from "../../../lib/label_sheets.ts";
import { makeItemOf, makeRow, tokenWith } from "./test_fixtures.ts";
import { GONE_MESSAGE, NO_ROWS_MESSAGE, NO_SERIAL_MESSAGE } from "./service/labels.ts";

const PATH = "/api/sales/inventory/labels";

Deno.test("inventory labels - the chosen rows print as a PDF of QR labels with their serials and items", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Serialized", { item_number: "VLV-200" });
    const rows = [];
    for (let i = 0; i < 31; i++) {
      rows.push(await makeRow(env, { item_id: item.id, serial_number: `QR-${100 + i}` }));
    }
    const ids = rows.map((r) => r.id).join(",");
    const res = await env.request(`${PATH}?ids=${ids}&size=avery-5160`, { token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.match(
      res.headers.get("content-disposition") ?? "",
      /attachment; filename="Inventory QR labels.pdf"/,
    );
    const pdf = new Uint8Array(await res.arrayBuffer());
    assert.equal((await PDFDocument.load(pdf)).getPageCount(), 2);
    const text = pdfText(pdf);
    for (const r of rows) assert.ok(text.includes(r.serial_number), r.serial_number);
    assert.ok(text.includes("VLV-200"));
  }));

Deno.test("inventory labels - bad choices are 422 with a sentence; missing rows 404; outsiders 403", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const serialized = await makeRow(env, {
      item_id: (await makeItemOf(env, "Serialized")).id,
      serial_number: "A1",
    });
    const blank = await makeRow(env, { item_id: (await makeItemOf(env, "Itemized")).id, serial_number: "" });
    const detail = async (query: string, status: number) =>
      (await env.json(`${PATH}?${query}`, { token, status })).detail;
    assert.equal(await detail("size=avery-5160", 422), NO_ROWS_MESSAGE);
    assert.match(await detail(`ids=${serialized.id}&size=a5`, 422), /Must be one of avery-5160/);
    assert.match(await detail("ids=1,x&size=avery-5160", 422), /comma-separated list of ids/);
    const many = Array.from({ length: MAX_LABELS + 1 }, (_, i) => i + 1).join(",");
    assert.match(await detail(`ids=${many}&size=avery-5160`, 422), /At most 1000 ids/);
    assert.equal(await detail(`ids=${blank.id}&size=avery-5160`, 422), NO_SERIAL_MESSAGE);
    assert.equal(await detail(`ids=${serialized.id},999999&size=avery-5160`, 404), GONE_MESSAGE);
    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    const outsider = await tokenWith(env, [], customer.id);
    await env.json(`${PATH}?ids=${serialized.id}&size=avery-5160`, { token: outsider, status: 403 });
  }));

Deno.test("inventory labels - the code's scheme is the request's as the server sees it, or the owner's publicBaseUrl", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const item = await makeItemOf(env, "Serialized");
    const row = await makeRow(env, { item_id: item.id, serial_number: "INV-9" });
    const code = async (headers: Record<string, string> = {}) => {
      const res = await env.request(`${PATH}?ids=${row.id}&size=thermal-2x1`, { token, headers });
      assert.equal(res.status, 200);
      const pdf = new Uint8Array(await res.arrayBuffer());
      return readQr(crop(await rasterPage(pdf, 1), 200, 0, 0, ...LABEL_SHEETS["thermal-2x1"].label));
    };
    assert.equal(await code(), "http://acme.test/serials/INV-9");
    assert.equal(await code({ "x-forwarded-proto": "https" }), "https://acme.test/serials/INV-9");
    await env.tenant.db.update(companies).set({ settings: { publicBaseUrl: "https://yard.example.com" } })
      .where(eq(companies.isOwner, true));
    assert.equal(await code(), "https://yard.example.com/serials/INV-9");
  }));
