import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { cellText, UNREADABLE } from "./service.ts";

async function send(env: TestEnv, token: string, file: File | string) {
  const form = new FormData();
  form.set("file", file);
  const res = await env.app.request(`http://${env.host}/api/sales/batch/parse`, {
    method: "POST",
    headers: { host: env.host, authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

async function workbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const first = wb.addWorksheet("Stock");
  first.addRow(["Serial Number", "Item Number", "Quantity", "Purchase Date", "Purchase Price", "Taxable"]);
  first.addRow(["SN-1", 1502, 3, new Date(Date.UTC(2024, 2, 5)), 1250.5, true]);
  first.addRow([]);
  first.addRow([
    "SN-3",
    { richText: [{ text: "PUMP" }, { text: "-3" }] },
    { formula: "1+1", result: 2 },
    "",
    0.1 + 0.2,
  ]);
  first.getCell("D2").numFmt = "mm/dd/yyyy";
  first.addRow([]);
  wb.addWorksheet("Other").addRow(["not read"]);
  return new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

Deno.test("batch parse - an xlsx answers its first sheet as text: dates YYYY-MM-DD, numbers plain", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const res = await send(
      env,
      token,
      new File([await workbook() as BlobPart], "stock.xlsx", { type: XLSX }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      rows: [
        ["Serial Number", "Item Number", "Quantity", "Purchase Date", "Purchase Price", "Taxable"],
        ["SN-1", "1502", "3", "2024-03-05", "1250.5", "TRUE"],
        [],
        ["SN-3", "PUMP-3", "2", "", "0.3"],
      ],
    }, "a blank row inside is kept, trailing ones dropped");
  }));

Deno.test("batch parse - a CSV with quoted commas, quotes and line breaks; BOM and CRLF", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const csv = '\ufeffitem_number,item_description,rate\r\nB-1,"2in plug, valve",40\r\n' +
      'B-2,"3"" hose\r\nwith fittings",12.50\r\n,,\r\n';
    const res = await send(env, token, new File([csv], "items.csv", { type: "text/csv" }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.rows, [
      ["item_number", "item_description", "rate"],
      ["B-1", "2in plug, valve", "40"],
      ["B-2", '3" hose\r\nwith fittings', "12.50"],
    ]);
    const semi = await send(env, token, new File(["a;b;c\n1;2,5;3\n"], "eu.csv"));
    assert.deepEqual(semi.body.rows, [["a", "b", "c"], ["1", "2,5", "3"]], "a ; separated file");
    const latin = await send(
      env,
      token,
      new File([new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x31])], "w.csv"),
    );
    assert.deepEqual(latin.body.rows, [["Café", "1"]], "not UTF-8: read as Windows-1252");
  }));

Deno.test("batch parse - an image or a broken xlsx is 422; no file is 422", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      0x49,
      0x48,
      0x44,
      0x52,
    ]);
    const res = await send(env, token, new File([png], "photo.png", { type: "image/png" }));
    assert.equal(res.status, 422);
    assert.deepEqual(res.body, { detail: UNREADABLE, errors: [{ path: "file", message: UNREADABLE }] });
    const zip = (await workbook()).slice(0, 200);
    assert.equal((await send(env, token, new File([zip], "cut.xlsx"))).status, 422);
    const none = await send(env, token, "just text");
    assert.deepEqual([none.status, none.body.detail], [422, "Choose a file"]);
  }));

Deno.test("batch parse - a file over MAX_UPLOAD_MB is 413", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const big = await send(env, token, new File(["a,b\n".repeat(4000)], "big.csv"));
    assert.deepEqual([big.status, big.body.detail], [413, "The file is larger than 0.01 MB."]);
  }, { MAX_UPLOAD_MB: "0.01" }));

Deno.test("batch parse - at most 5000 rows after a header", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const ok = await send(env, token, new File(["h\n" + "x\n".repeat(5000)], "ok.csv"));
    assert.equal(ok.body.rows.length, 5001);
    const over = await send(env, token, new File(["h\n" + "x\n".repeat(5001)], "over.csv"));
    assert.deepEqual([over.status, over.body.detail], [422, "At most 5000 rows per upload"]);
  }));

Deno.test("batch parse - a General user is refused (403); sign-in is required (401)", () =>
  withEnv(async (env) => {
    const { token } = await env.userWithToken({ permissions: ["inspector"], company_id: 1 });
    const res = await send(env, token, new File(["a,b\n"], "a.csv"));
    assert.equal(res.status, 403);
    const anon = await env.app.request(`http://${env.host}/api/sales/batch/parse`, {
      method: "POST",
      headers: { host: env.host },
      body: new FormData(),
    });
    assert.equal(anon.status, 401);
  }));

Deno.test("batch parse - an xlsx declaring a huge unpacked size is refused before it is unpacked", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const data = await workbook();
    const view = new DataView(data.buffer);
    for (let i = 0; i < data.length - 4; i++) {
      if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, 300 * 1024 * 1024, true);
    }
    const res = await send(env, token, new File([data as BlobPart], "bomb.xlsx"));
    assert.deepEqual([res.status, res.body.detail], [413, "The spreadsheet is too large to read."]);
  }));

Deno.test("batch parse - cellText: formulas by result, errors, hyperlinks, times", () => {
  assert.equal(cellText({ formula: "A1", result: new Date(Date.UTC(2024, 0, 2)) }), "2024-01-02");
  assert.equal(cellText({ formula: "A1" }), "");
  assert.equal(cellText({ error: "#N/A" }), "#N/A");
  assert.equal(cellText({ text: "site", hyperlink: "https://x.test" }), "site");
  assert.equal(cellText(new Date(Date.UTC(2024, 0, 2, 8, 29, 59, 999))), "2024-01-02 08:30");
  assert.equal(cellText(123456789012345678), "123456789012346000");
  assert.equal(cellText(false), "FALSE");
});
