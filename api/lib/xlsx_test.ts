import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { safeCell, XLSX_TYPE, xlsxResponse } from "./xlsx.ts";

async function readSheet(res: Response) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer() as never);
  const ws = wb.worksheets[0];
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

Deno.test("xlsxResponse - answers a named xlsx download with a header row and the rows", async () => {
  const res = await xlsxResponse(
    "Things",
    [{ header: "Name", key: "name" }, { header: "Count", key: "count", width: 8 }],
    [{ name: "Widget", count: 3 }, { name: "Gadget", count: 0 }],
    new Date("2024-03-05T12:00:00Z"),
  );
  assert.equal(res.headers.get("content-type"), XLSX_TYPE);
  assert.equal(res.headers.get("content-disposition"), 'attachment; filename="Things-2024-03-05.xlsx"');
  assert.deepEqual(await readSheet(res), [["Name", "Count"], ["Widget", 3], ["Gadget", 0]]);
});

Deno.test("xlsxResponse - strings that could start a formula are written as text with a quote", async () => {
  const names = ["=cmd()", "+1", "-2+3", "@SUM(A1)", "\tx", "plain", "a=b"];
  const res = await xlsxResponse("T", [{ header: "Name", key: "name" }], names.map((name) => ({ name })));
  const rows = await readSheet(res);
  assert.deepEqual(rows.slice(1).map((r) => r[0]), [
    "'=cmd()",
    "'+1",
    "'-2+3",
    "'@SUM(A1)",
    "'\tx",
    "plain",
    "a=b",
  ]);
});

Deno.test("safeCell - numbers stay numbers, empty values become blank, lists are joined", () => {
  assert.equal(safeCell(-5), -5);
  assert.equal(safeCell(null), "");
  assert.equal(safeCell(undefined), "");
  assert.equal(safeCell(["a", "b"]), "a, b");
  assert.equal(safeCell(["=x"]), "'=x");
  // XML turns a carriage return into a line feed on reading, so this one is checked before writing.
  assert.equal(safeCell("\rx"), "'\rx");
});

Deno.test("xlsxResponse - instant columns are date-times on the company's clock; the file's date too", async () => {
  const res = xlsxResponse(
    "Audit",
    [{ header: "When", key: "at", instant: true }, { header: "Day", key: "day" }],
    [{ at: "2026-03-05T03:30:00.000Z", day: "2026-03-05" }, { at: null, day: "" }],
    new Date("2026-03-05T03:30:00Z"),
    { timeZone: "America/Chicago" },
  );
  assert.equal(res.headers.get("content-disposition"), 'attachment; filename="Audit-2026-03-04.xlsx"');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer() as never);
  const ws = wb.worksheets[0];
  const at = ws.getRow(2).getCell(1);
  // Spreadsheets have no zones: the cell holds Chicago's wall-clock time (ExcelJS reads it as UTC).
  assert.equal((at.value as Date).toISOString(), "2026-03-04T21:30:00.000Z");
  assert.equal(at.numFmt, "mm-dd-yyyy hh:mm");
  assert.equal(ws.getRow(2).getCell(2).value, "2026-03-05", "a calendar date stays as stored");
  assert.equal(ws.getRow(3).getCell(1).value, "");
});

Deno.test("xlsxResponse - a sheet of many chunks reads back cell for cell (the writer reuses its buffer)", async () => {
  const texts = ["plain", "a&b<c>\"d'", "ünïcödé 日本 😀", "x\u0001y", "", "long ".repeat(20_000)];
  const numbers = [0, 7, 10, 99, 100, 12345678901, -1, -250, 1.5, -0.125, 1e-7];
  const rows = Array.from({ length: 6_000 }, (_, i) => ({
    text: texts[i % texts.length],
    n: numbers[i % numbers.length],
    yes: i % 2 === 0,
    i,
  }));
  const res = xlsxResponse("Many", [
    { header: "Text", key: "text" },
    { header: "N", key: "n" },
    { header: "Yes", key: "yes" },
    { header: "I", key: "i" },
  ], rows);
  const read = await readSheet(res);
  assert.equal(read.length, rows.length + 1);
  read.slice(1).forEach((r, i) => {
    // XML cannot hold the control character: it is dropped.
    const text = rows[i].text.replace("\u0001", "");
    assert.deepEqual(r, [text, rows[i].n, rows[i].yes, i], `row ${i + 2}`);
  });
});

Deno.test("xlsxResponse - the file is written in turns of its own: another task runs between its parts", async () => {
  // Each timer turn that fires while the file is written is one other requests could have had. The parts
  // written in the request's own turn held a server's first download 26-60 ms (docs/performance.md).
  let turns = 0;
  let writing = true;
  const tick = () => {
    if (!writing) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const res = xlsxResponse("T", [{ header: "Name", key: "name" }], [{ name: "a" }]);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.ok(first.value && first.value.length > 0);
  const before = turns;
  while (!(await reader.read()).done);
  writing = false;
  assert.ok(before >= 1, `a turn before the first part: ${before}`);
  assert.ok(turns >= 7, `a turn after each of the six parts and before the sheet: ${turns}`);
});

Deno.test("xlsxResponse - date columns are real date cells, one MM-DD-YYYY format; an instant's day is the company's", async () => {
  const res = xlsxResponse(
    "Days",
    [
      { header: "Day", key: "day", date: true },
      { header: "Touched", key: "at", date: true },
      { header: "UT", key: "ut", format: "ut" },
      { header: "Pressure", key: "psi", format: "pressure" },
    ],
    [
      // 03:30 UTC on the 5th is still the 4th in Chicago.
      { day: "2026-11-27", at: "2026-03-05T03:30:00.000Z", ut: 0.42, psi: 15000 },
      { day: "", at: null, ut: null, psi: null },
      { day: "not a date", at: "soon", ut: 0.426, psi: 9500.4 },
    ],
    new Date("2026-03-05T03:30:00Z"),
    { timeZone: "America/Chicago" },
  );
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer() as never);
  const ws = wb.worksheets[0];
  const [day, at, ut, psi] = [1, 2, 3, 4].map((i) => ws.getRow(2).getCell(i));
  assert.ok(day.value instanceof Date, "a calendar date is a date cell, not text");
  assert.equal((day.value as Date).toISOString(), "2026-11-27T00:00:00.000Z");
  assert.equal((at.value as Date).toISOString(), "2026-03-04T00:00:00.000Z");
  for (const c of [day, at]) assert.equal(c.numFmt, "mm-dd-yyyy");
  assert.equal(ut.value, 0.42);
  assert.equal(ut.numFmt, "0.000");
  assert.equal(psi.value, 15000);
  assert.equal(psi.numFmt, '#,##0" psi"');
  assert.equal(ws.getRow(3).getCell(1).value, "");
  assert.equal(ws.getRow(3).getCell(3).value, "", "no reading is an empty cell");
  // What is not a day stays as text rather than becoming a wrong date.
  assert.equal(ws.getRow(4).getCell(1).value, "not a date");
  assert.equal(ws.getRow(4).getCell(2).value, "soon");
});
