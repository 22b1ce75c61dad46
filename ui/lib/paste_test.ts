import assert from "node:assert/strict";
import { errorMarks, gridRows, headerColumns, pasteBlock, splitDelimited, splitTsv } from "./paste.ts";

const COLS = [
  { key: "item_number", label: "Item Number" },
  { key: "item_description", label: "Item" },
  { key: "rate", label: "Rate" },
  { key: "isTaxable", label: "Taxable" },
];
const ALIASES = { "Item Description": "item_description", "Notes": "" };
const blank = (n: number) => Array.from({ length: n }, () => ["", "", "", ""]);
const paste = (text: string, at = { row: 0, column: 0 }, grid = blank(3)) =>
  pasteBlock(grid, at, splitTsv(text), COLS, ALIASES);

Deno.test("pasteBlock - without a header, cells fill the grid down and right from the cell pasted into", () => {
  assert.deepEqual(paste("A-1\t3in swivel\t125\tyes\nA-2\tHose\r\nA-3"), [
    ["A-1", "3in swivel", "125", "yes"],
    ["A-2", "Hose", "", ""],
    ["A-3", "", "", ""],
  ]);
  const grid = [["X", "keep", "", ""], ["", "", "", ""]];
  assert.deepEqual(paste("1\t2\t3\n4\t5\t6\n7\t8\t9", { row: 1, column: 2 }, grid), [
    ["X", "keep", "", ""],
    ["", "", "1", "2"],
    ["", "", "4", "5"],
    ["", "", "7", "8"],
  ], "rows are added as needed; cells past the last column are dropped");
});

Deno.test("pasteBlock - a header row names the columns by key, label or alias; it is dropped", () => {
  const text = "Rate\tITEM NUMBER\tItem Description\tNotes\n10\tB-1\tPlug valve\tignored\n\t\t\n20\tB-2\t";
  assert.deepEqual(paste(text, { row: 1, column: 3 }), [
    ["", "", "", ""],
    ["B-1", "Plug valve", "10", ""],
    ["", "", "", ""],
    ["B-2", "", "20", ""],
  ], "placed by the header wherever it was pasted; blank lines inside are kept");
  assert.deepEqual(paste("item_number\tis_taxable\nC-1\tx"), [["C-1", "", "", "x"], ...blank(2)]);
  // One cell that is no column name: the first line is data.
  assert.deepEqual(paste("item_number\tPlug valve")[0], ["item_number", "Plug valve", "", ""]);
  // A lone word is a value even when it names a column.
  assert.deepEqual(paste("Rate", { row: 0, column: 1 })[0], ["", "Rate", "", ""]);
  assert.deepEqual(headerColumns([["Item", "Taxable"]], COLS), [1, 3]);
});

Deno.test("splitTsv - Excel's quoted cells keep their tabs, line breaks (CRLF too) and quotes", () => {
  const text = 'D-1\t"3"" hose\tred\r\nsecond line"\t5\r\nD-2\t"plain"\t6\r\n"D-3"\t2" pipe\t7\r\n';
  assert.deepEqual(paste(text), [
    ["D-1", '3" hose\tred\r\nsecond line', "5", ""],
    ["D-2", "plain", "6", ""],
    ["D-3", '2" pipe', "7", ""],
  ]);
  // A quote that does not close the cell is text.
  assert.deepEqual(splitTsv('"abc\tdef'), [['"abc', "def"]]);
  assert.deepEqual(splitTsv('"a"b\tc'), [['"a"b', "c"]]);
  assert.deepEqual(splitTsv("a\rb\r\nc"), [["a"], ["b"], ["c"]], "old Mac line ends");
});

Deno.test("splitDelimited - CSV by RFC 4180: quoted commas, doubled quotes, empty fields", () => {
  assert.deepEqual(splitDelimited('a,"b, c",""\r\n"say ""hi""",,x\r\n', ","), [
    ["a", "b, c", ""],
    ['say "hi"', "", "x"],
  ]);
});

Deno.test("splitTsv - trailing empty lines and nothing at all", () => {
  assert.deepEqual(splitTsv("E-1\t\t\n\n\t\t\r\n\n").map((r) => r[0]), ["E-1"]);
  assert.deepEqual(splitTsv(""), []);
  assert.deepEqual(splitTsv("\n\n"), []);
  assert.deepEqual(splitTsv("a\t"), [["a", ""]]);
  assert.deepEqual(splitTsv("a\n\nb"), [["a"], [""], ["b"]]);
});

Deno.test("gridRows - every row up to the last filled one, blank ones as empty rows; empty columns left out", () => {
  const grid = [
    ["A-1", "", "10", ""],
    ["", " ", "", ""],
    ["A-3", "Hose", "", ""],
    ["", "", "", ""],
  ];
  assert.deepEqual(gridRows(grid, COLS), [
    { item_number: "A-1", item_description: "", rate: "10" },
    { item_number: "", item_description: " ", rate: "" },
    { item_number: "A-3", item_description: "Hose", rate: "" },
  ]);
  assert.deepEqual(gridRows(blank(5), COLS), []);
});

Deno.test("errorMarks - the server's rows.<n>.<column> errors as grid cells and rows", () => {
  const marks = errorMarks([
    { path: "rows.3.rate", message: "Row 3, rate: Must be a number" },
    { path: "rows.3.rate", message: "Row 3, rate: second" },
    { path: "rows.5.business_unit_id", message: "Row 5, business_unit_id: Unknown business unit" },
    { path: "rows", message: "No rows to upload" },
  ], COLS);
  assert.deepEqual([...marks.cells], [["2.2", "Row 3, rate: Must be a number"]]);
  assert.deepEqual([...marks.rows], [2, 4]);
  assert.deepEqual(marks.first, { row: 2, column: 2 });
});
