import assert from "node:assert/strict";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import {
  drawFields,
  drawHeading,
  drawSignatureBlock,
  drawTable,
  pdfResponse,
  pdfSafe,
  renderPdf,
} from "./pdf.ts";
import { drawLogo, pdfLogo } from "./pdf_logo.ts";
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

Deno.test("pdf - continuation pages carry the running header; the count includes pages appended later", async () => {
  const rows = Array.from({ length: 120 }, (_, i) => [`row-${i}`]);
  const bytes = await renderPdf((doc) => drawTable(doc, [{ header: "Serial", width: 1 }], rows), {
    runningHeader: "Invoice INV-00012 (continued)",
    pagesAfter: 2,
  });
  const pages = pageCount(bytes);
  assert.ok(pages >= 2, `${pages} pages`);
  const text = pdfText(bytes).split("\n");
  assert.equal(
    text.filter((l) => l === "Invoice INV-00012 (continued)").length,
    pages - 1,
    "every page but the first",
  );
  assert.ok(text.includes(`Page 1 of ${pages + 2}`) && text.includes(`Page ${pages} of ${pages + 2}`));
});

Deno.test("pdf - a signature block: the signer's role and name under a line, and a line for the date", async () => {
  const text = pdfText(
    await renderPdf((doc) => drawSignatureBlock(doc, [{ role: "Inspector", name: "Dana Field" }])),
  );
  for (const s of ["Inspector signature", "Dana Field", "Date"]) assert.ok(text.includes(s), s);
});

const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const hasImage = (b: Uint8Array) => latin1(b).includes("/Subtype /Image");

Deno.test("pdf logo - logoSVG is drawn as vector SVG, or as the PNG it holds; logoSVGHeight sets its height", async () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100">' +
    '<rect width="300" height="100" fill="#036"/><text x="10" y="60" font-size="40">ACME LOGO</text></svg>';
  const logo = pdfLogo({ logoSVG: svg, logoSVGHeight: 60 })!;
  assert.equal(logo.height, 40);
  let width = 0;
  const vector = await renderPdf((doc) => void (width = drawLogo(doc, logo, 40, 40)), { compress: false });
  assert.equal(width, 120, "300 x 100 at 40 points tall");
  const content = latin1(vector);
  assert.ok(content.includes("120 0 l\n120 40 l"), "drawn in a 120 x 40 point box");
  assert.ok(content.includes("0 0.2 0.4 scn"), "the SVG's own fill, as vector paths");
  assert.ok(!hasImage(vector), "vector, not an image");
  const png = await renderPdf((doc) => void drawLogo(doc, pdfLogo({ logoSVG: PNG_B64 }), 40, 40));
  assert.ok(hasImage(png));
  assert.equal(
    pdfLogo({ logoSVG: `data:image/png;base64,${PNG_B64}` })!.height,
    50,
    "the default 75 px is 50 points",
  );
});

Deno.test("pdf logo - SVG never reads a file or a link; broken markup or a bad image draws nothing, never fails", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/logo.png`;
    await Deno.writeFile(file, Uint8Array.from(atob(PNG_B64), (c) => c.charCodeAt(0)));
    const svg = (href: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="${href}" width="10" height="10"/></svg>`;
    const fromFile = await renderPdf((doc) => void drawLogo(doc, pdfLogo({ logoSVG: svg(file) }), 40, 40));
    assert.ok(!hasImage(fromFile), "a path in the markup is not read from the server's disk");
    const inline = await renderPdf((doc) =>
      void drawLogo(doc, pdfLogo({ logoSVG: svg(`data:image/png;base64,${PNG_B64}`) }), 40, 40)
    );
    assert.ok(hasImage(inline), "an image the markup carries is drawn");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  for (const logoSVG of ["<svg><g><rect", "<not-svg/>", `data:image/png;base64,${PNG_B64.slice(0, 30)}`]) {
    const text = pdfText(
      await renderPdf((doc) => {
        drawLogo(doc, pdfLogo({ logoSVG }), 40, 40);
        doc.text("after the logo");
      }),
    );
    assert.ok(text.includes("after the logo"), logoSVG);
  }
});
