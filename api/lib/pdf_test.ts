import assert from "node:assert/strict";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import { drawFields, drawHeading, drawTable, pdfResponse, pdfSafe, renderPdf } from "./pdf.ts";
import { formatDate } from "../../lib/format.ts";

const latin1 = (b: Uint8Array) => new TextDecoder("latin1").decode(b);
const pageCount = (b: Uint8Array) => (latin1(b).match(/\/Type \/Page\b/g) ?? []).length;

Deno.test("pdf - renderPdf answers a PDF whose text can be read back, compressed or not", async () => {
  for (const compress of [true, false]) {
    const bytes = await renderPdf((doc) => {
      drawHeading(doc, "Report Title");
      drawFields(doc, [["Label One", "Value One"], ["Label Two", "Value Two"]]);
    }, { compress });
    assert.equal(latin1(bytes.subarray(0, 5)), "%PDF-");
    const text = pdfText(bytes);
    for (const s of ["Report Title", "Label One", "Value One", "Value Two", "Page 1 of 1"]) {
      assert.ok(text.includes(s), `${s} in ${JSON.stringify(text)}`);
    }
    assert.equal(
      latin1(bytes).includes("Value One"),
      false,
      "strings are hex-encoded, so the check above reads them",
    );
  }
});

Deno.test("pdf - a long table runs onto new pages, repeating its header on each", async () => {
  const rows = Array.from({ length: 150 }, (_, i) => [`row-${i}`, "x"]);
  const bytes = await renderPdf((doc) =>
    drawTable(doc, [{ header: "Serial", width: 1 }, { header: "Value", width: 2 }], rows)
  );
  const pages = pageCount(bytes);
  assert.ok(pages >= 3, `${pages} pages`);
  const text = pdfText(bytes).split("\n");
  assert.equal(text.filter((l) => l === "Serial").length, pages, "one header row per page");
  assert.ok(text.includes("row-0") && text.includes("row-149"));
  assert.ok(text.includes(`Page ${pages} of ${pages}`));
});

Deno.test("pdf - an empty table says so; one huge cell is cut rather than spilling over pages", async () => {
  const empty = pdfText(
    await renderPdf((doc) => drawTable(doc, [{ header: "A", width: 1 }], [], { emptyText: "Nothing here" })),
  );
  assert.ok(empty.includes("Nothing here"));
  const huge = await renderPdf((doc) =>
    drawTable(doc, [{ header: "Notes", width: 1 }], [["word ".repeat(20000)]])
  );
  assert.equal(pageCount(huge), 1);
});

Deno.test("pdf - formatDate shows dates as MM-DD-YYYY and leaves other text alone", () => {
  assert.equal(formatDate("2024-03-05"), "03-05-2024");
  assert.equal(formatDate("2024-03-05T10:11:12Z"), "03-05-2024");
  assert.equal(formatDate(""), "");
  assert.equal(formatDate(null), "");
  assert.equal(formatDate("soon"), "soon");
});

Deno.test("pdf - pdfSafe keeps what the standard fonts print and replaces the rest", () => {
  assert.equal(pdfSafe("Ünïcode — 5 €\r\nline\ttab"), "Ünïcode — 5 €\nline tab");
  assert.equal(pdfSafe("日本 😀"), "?? ?");
});

Deno.test("pdf - pdfResponse answers application/pdf inline with a safe file name", async () => {
  const res = pdfResponse(new Uint8Array([37, 80, 68, 70]), 'Job-"A/1"\r\n.pdf');
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.equal(res.headers.get("content-disposition"), 'inline; filename="Job-_A_1___.pdf"');
  assert.equal((await res.arrayBuffer()).byteLength, 4);
});
