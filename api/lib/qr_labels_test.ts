import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { pdfText } from "../../scripts/testing/pdf_text.ts";
import { crop, rasterPage, readQr } from "../../scripts/testing/qr_image.ts";
import { LABEL_SHEET_IDS, LABEL_SHEETS, type LabelSheetId } from "../../lib/label_sheets.ts";
import { serialFromCode } from "../../lib/scanned_serial.ts";
import { renderQrLabels } from "./qr_labels.ts";

const labels = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ serial: `SN-${1001 + i}`, item: `VLV-${i}` }));
const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();

/** The text of the QR code on label `slot` of page `page`, read from the page as printed (200 dpi). */
async function qrAt(pdf: Uint8Array, id: LabelSheetId, page: number, slot: number): Promise<string> {
  const s = LABEL_SHEETS[id];
  const img = await rasterPage(pdf, page, 200);
  const x = s.left + (slot % s.columns) * s.pitch[0];
  const y = s.top + Math.floor(slot / s.columns) * s.pitch[1];
  return readQr(crop(img, 200, x, y, s.label[0], s.label[1]));
}

Deno.test("qr labels - each stock fills its sheets: 30 a Letter sheet, 21 an A4 sheet, one a thermal page", async () => {
  const expected: Record<LabelSheetId, number> = { "avery-5160": 2, "avery-l7160": 2, "thermal-2x1": 31 };
  for (const id of LABEL_SHEET_IDS) {
    const pdf = await renderQrLabels(labels(31), id, "https://acme.test");
    assert.equal(await pageCount(pdf), expected[id], id);
    const text = pdfText(pdf);
    for (const l of labels(31)) {
      assert.ok(text.includes(l.serial), `${id}: ${l.serial}`);
      assert.ok(text.includes(l.item), `${id}: ${l.item}`);
    }
  }
  const full = await renderQrLabels(labels(30), "avery-5160", "https://acme.test");
  assert.equal(await pageCount(full), 1, "30 labels are one Avery 5160 sheet");
  assert.equal(await pageCount(await renderQrLabels(labels(21), "avery-l7160", "https://acme.test")), 1);
});

Deno.test("qr labels - the printed QR code reads back as the serial's page, which the scanner takes", async () => {
  const serials = labels(31);
  const pdf = await renderQrLabels(serials, "avery-5160", "https://acme.test");
  for (const [page, slot, index] of [[1, 0, 0], [1, 2, 2], [1, 29, 29], [2, 0, 30]]) {
    const code = await qrAt(pdf, "avery-5160", page, slot);
    assert.equal(code, `https://acme.test/serials/${serials[index].serial}`);
    assert.deepEqual(serialFromCode(code), { serial: serials[index].serial });
  }
  const odd = [{ serial: "A/B 7#ü", item: "" }];
  for (const id of ["avery-l7160", "thermal-2x1"] as const) {
    const code = await qrAt(await renderQrLabels(odd, id, "https://acme.test"), id, 1, 0);
    assert.equal(code, "https://acme.test/serials/A%2FB%207%23%C3%BC");
    assert.deepEqual(serialFromCode(code), { serial: "A/B 7#ü" });
  }
});
