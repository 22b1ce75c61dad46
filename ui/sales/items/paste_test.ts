import assert from "node:assert/strict";
import { parsePastedRows, splitTsv } from "./paste.ts";

const COLS = ["item_number", "item_description", "rate", "isTaxable"] as const;
const ALIASES = { "Item": "item_description", "Taxable": "isTaxable" };

Deno.test("parsePastedRows - without a header, cells are taken in column order", () => {
  const rows = parsePastedRows("A-1\t3in swivel\t125\tyes\nA-2\tHose\r\nA-3", COLS, ALIASES);
  assert.deepEqual(rows, [
    { item_number: "A-1", item_description: "3in swivel", rate: "125", isTaxable: "yes" },
    { item_number: "A-2", item_description: "Hose", rate: "", isTaxable: "" },
    { item_number: "A-3", item_description: "", rate: "", isTaxable: "" },
  ]);
});

Deno.test("parsePastedRows - a header row names the columns, in any order, by key or label", () => {
  const text = "Rate\tITEM NUMBER\tItem\n10\tB-1\tPlug valve\n\t\t\n20\tB-2\t";
  assert.deepEqual(parsePastedRows(text, COLS, ALIASES), [
    { rate: "10", item_number: "B-1", item_description: "Plug valve" },
    { rate: "", item_number: "", item_description: "" },
    { rate: "20", item_number: "B-2", item_description: "" },
  ], "columns the header lacks are left out; blank lines inside are kept (the server drops them)");
  assert.deepEqual(parsePastedRows("item_number\tis_taxable\nC-1\tx", COLS), [{
    item_number: "C-1",
    isTaxable: "x",
  }]);
  // One cell that is no column name: the first line is data.
  assert.deepEqual(parsePastedRows("item_number\tPlug valve\n", COLS)[0], {
    item_number: "item_number",
    item_description: "Plug valve",
    rate: "",
    isTaxable: "",
  });
});

Deno.test("parsePastedRows - quoted cells from Excel keep their tabs, line breaks and quotes", () => {
  const text = 'D-1\t"3"" hose\tred\nsecond line"\t5\nD-2\t"plain"\t6\n"D-3"\t2" pipe\t7';
  assert.deepEqual(parsePastedRows(text, COLS), [
    { item_number: "D-1", item_description: '3" hose\tred\nsecond line', rate: "5", isTaxable: "" },
    { item_number: "D-2", item_description: "plain", rate: "6", isTaxable: "" },
    { item_number: "D-3", item_description: '2" pipe', rate: "7", isTaxable: "" },
  ]);
  // A quote that does not close the cell is text.
  assert.deepEqual(splitTsv('"abc\tdef'), [['"abc', "def"]]);
  assert.deepEqual(splitTsv('"a"b\tc'), [['"a"b', "c"]]);
});

Deno.test("parsePastedRows - trailing empty lines and nothing at all", () => {
  assert.deepEqual(parsePastedRows("E-1\t\t\n\n\t\t\r\n\n", COLS).map((r) => r.item_number), ["E-1"]);
  assert.deepEqual(parsePastedRows("", COLS), []);
  assert.deepEqual(parsePastedRows("\n\n", COLS), []);
  assert.deepEqual(splitTsv("a\t"), [["a", ""]]);
  assert.deepEqual(splitTsv("a\n\nb"), [["a"], [""], ["b"]]);
});
