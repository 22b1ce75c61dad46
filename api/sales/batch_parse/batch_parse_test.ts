import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { cellText, UNREADABLE } from "./service.ts";
import { AppError } from "../../../lib/errors.ts";
import { TOO_LARGE } from "./limits.ts";
import { BUSY, PARSE_LIMITS, parseInWorker, parseLoad, tooSlow } from "./worker_pool.ts";
import { until } from "../../../scripts/testing/until.ts";
import { rowsEnd } from "./csv.ts";
import { minimalXlsx, zerosDeflated } from "./zip_fixture.ts";
import { xlsxResponse } from "../../lib/xlsx.ts";

async function send(env: TestEnv, token: string, file: File | string | Uint8Array) {
  const form = new FormData();
  form.set("file", file instanceof Uint8Array ? new File([file as BlobPart], "sheet.xlsx") : file);
  const res = await env.app.request(`http://${env.host}/api/sales/batch/parse`, {
    method: "POST",
    headers: { host: env.host, authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
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

/** An xlsx of `rows` rows of `cols` (at most 52) text cells: exceljs reads 5000 x 20 in about 1.3 s. */
function wideSheet(rows: number, cols: number): Uint8Array {
  const out: string[] = [];
  for (let i = 1; i <= rows; i++) {
    const cells = Array.from({ length: cols }, (_, j) => {
      const ref = `${j < 26 ? "" : "A"}${String.fromCharCode(65 + (j % 26))}${i}`;
      return `<c r="${ref}" t="inlineStr"><is><t>R${i}C${j} text</t></is></c>`;
    });
    out.push(`<row r="${i}">${cells.join("")}</row>`);
  }
  return minimalXlsx(out.join(""));
}

const valueRows = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, k) => `<row r="${from + k}"><c r="A${from + k}"><v>${k}</v></c></row>`,
  )
    .join("");

Deno.test("batch parse - an xlsx whose directory understates its sizes is 413 once the real bytes pass 40 MB", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const sheet = { name: "xl/worksheets/sheet1.xml", deflated: zerosDeflated(150), declared: 2000 };
    const res = await send(env, token, minimalXlsx(sheet));
    assert.deepEqual([res.status, res.body.detail], [413, TOO_LARGE]);
  }));

Deno.test("batch parse - a 4 GB bomb in a 4 MB upload is refused without unpacking it all", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const bomb = minimalXlsx({
      name: "xl/worksheets/sheet1.xml",
      deflated: zerosDeflated(4096),
      declared: 9,
    });
    const started = performance.now();
    const res = await send(env, token, bomb);
    assert.deepEqual([res.status, res.body.detail], [413, TOO_LARGE]);
    const ms = performance.now() - started;
    // Unpacking 4 GB takes far longer than this (and 4 GB); stopping at the cap takes well under a second.
    assert.ok(ms < 5000, `took ${ms} ms`);
  }));

Deno.test("batch parse - xlsx rows: over 5000 value rows is 422 before reading; formatted empty rows do not count", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const over = await send(env, token, minimalXlsx(valueRows(1, 5002)));
    assert.deepEqual([over.status, over.body.detail], [422, "At most 5000 rows per upload"]);
    const formatted = Array.from(
      { length: 3000 },
      (_, k) => `<row r="${5002 + k}" ht="20" customHeight="1"/>`,
    );
    const ok = await send(env, token, minimalXlsx(valueRows(1, 5001) + formatted.join("")));
    assert.equal(ok.status, 200, JSON.stringify(ok.body).slice(0, 300));
    assert.equal(ok.body.rows.length, 5001);
    const cells = "<row>" + "<c><v>1</v></c>".repeat(260_000) + "</row>";
    const wide = await send(env, token, minimalXlsx(cells));
    assert.deepEqual([wide.status, wide.body.detail], [413, TOO_LARGE], "more than 250,000 cells");
    const hidden = { name: "x/xl/worksheets/sheet9.xml", data: new TextEncoder().encode(cells) };
    const renamed = await send(env, token, minimalXlsx(hidden));
    assert.deepEqual(
      [renamed.status, renamed.body.detail],
      [413, TOO_LARGE],
      "any entry exceljs reads as a sheet",
    );
  }));

Deno.test("batch parse - an xlsx download of ours (streamed, inline strings) uploads back as it was", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const columns = [{ header: "Serial Number", key: "sn" }, { header: "Quantity", key: "qty" }];
    const res = xlsxResponse("Stock", columns, [{ sn: "SN-1", qty: 3 }, { sn: "=cmd", qty: 0.5 }]);
    const back = await send(env, token, new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual(back.body, { rows: [["Serial Number", "Quantity"], ["SN-1", "3"], ["'=cmd", "0.5"]] });
  }));

Deno.test("batch parse - CSV rows are counted as splitDelimited reads them: quoted line breaks stay in their cell", () =>
  withEnv(async (env) => {
    assert.equal(rowsEnd('a,"x\ny"\nb,c\nd', ",", 1), 8);
    assert.equal(rowsEnd('a,"x""\n"\nb', ",", 1), 9, "a doubled quote does not close the cell");
    assert.equal(rowsEnd('"a"b\nc', ",", 1), 5, "a quote not closing the cell: the line ends the row");
    const token = await env.login();
    const csv = "h,notes\n" + 'x,"two\nlines"\n'.repeat(5000) + ",\n\n  \n";
    const ok = await send(env, token, new File([csv], "notes.csv"));
    assert.deepEqual([ok.status, ok.body.rows.length, ok.body.rows[5000]], [200, 5001, ["x", "two\nlines"]]);
  }));

Deno.test("batch parse - while a large file is read, the event loop stays free and another tenant is served", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await env.addTenant("beta", "beta.test");
    const betaToken = await env.login(undefined, undefined, "beta.test");
    // 7 MB, 5000 rows of long quoted cells: allowed, and seconds of work on whichever thread reads it.
    const csv = "serial,notes,qty\n" + `SN-1,"${"long notes, with commas ".repeat(60)}",3\n`.repeat(5000);
    let gap = 0;
    let last = performance.now();
    const tick = () => {
      gap = Math.max(gap, performance.now() - last);
      last = performance.now();
    };
    const ticker = setInterval(tick, 20);
    try {
      const order: string[] = [];
      const parse = send(env, token, new File([csv], "big.csv")).then((r) => (order.push("parse"), r));
      // The list is asked for once the parse holds its worker (not before: then it would prove nothing).
      await until(() => parseLoad().active === 1, "the parse started");
      const list = env.request("/api/sales/items", { token: betaToken, host: "beta.test" })
        .then((r) => (order.push("list"), r));
      const [parsed, listed] = await Promise.all([parse, list]);
      tick();
      assert.deepEqual([parsed.status, parsed.body.rows?.length], [200, 5001]);
      assert.equal(listed.status, 200);
      await listed.body?.cancel();
      assert.deepEqual(order, ["list", "parse"], "the other tenant's list answered during the parse");
      // Read on the request thread, this file holds the loop for seconds; in a worker, ticks keep coming
      // (the margin is for a busy machine: a few hundred ms are seen under load).
      assert.ok(gap < 1000, `the event loop stalled for ${gap} ms`);
    } finally {
      clearInterval(ticker);
    }
  }));

Deno.test("batch parse - beyond the parses running and waiting, 429 with Retry-After; the rest are read", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const sheet = wideSheet(3000, 20);
    const n = PARSE_LIMITS.running + PARSE_LIMITS.waiting + 2;
    const results = await Promise.all(Array.from({ length: n }, () => send(env, token, sheet)));
    const busy = results.filter((r) => r.status === 429);
    assert.ok(busy.length >= 1, `statuses: ${results.map((r) => r.status)}`);
    for (const r of busy) assert.deepEqual([r.body.detail, r.retryAfter], [BUSY, "5"]);
    assert.ok(results.filter((r) => r.status === 200).length >= PARSE_LIMITS.running + PARSE_LIMITS.waiting);
    const after = await send(env, token, new File(["a,b\n"], "a.csv"));
    assert.equal(after.status, 200, "the slots were given back");
  }));

Deno.test("batch parse - a parse over its time limit is stopped and answers 422; the slot is given back", async () => {
  await assert.rejects(
    parseInWorker(wideSheet(5001, 20), 200),
    (e) => e instanceof AppError && e.status === 422 && e.message === tooSlow(200),
  );
  assert.deepEqual(await parseInWorker(new TextEncoder().encode("a,b\n")), [["a", "b"]]);
});
