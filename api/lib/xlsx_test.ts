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
