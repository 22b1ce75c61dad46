import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { readZip, ZipError, type ZipLimits } from "./zip.ts";
import { ZipWriter } from "./zip_writer.ts";
// The builder of hostile zips lives with the upload that needed it first; both tests use it.
import { buildZip, zerosDeflated } from "../sales/batch_parse/zip_fixture.ts";

const LIMITS: ZipLimits = { maxEntries: 1000, maxInflated: 40 * 1024 * 1024 };

const zip = buildZip;

function refused(fn: () => unknown, kind: ZipError["kind"]) {
  assert.throws(fn, (e) => e instanceof ZipError && e.kind === kind, `expected ${kind}`);
}

const text = (s: string) => new TextEncoder().encode(s);
const MB = 1024 * 1024;

Deno.test("zip - a real xlsx reads back entry by entry; keep chooses whose bytes are answered", async () => {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet("S").addRow(["hello", 1]);
  const xlsx = new Uint8Array(await wb.xlsx.writeBuffer() as ArrayBuffer);
  const all = readZip(xlsx, LIMITS);
  const names = all.map((e) => e.name);
  assert.ok(names.includes("xl/workbook.xml") && names.includes("xl/worksheets/sheet1.xml"), `${names}`);
  const sheet = new TextDecoder().decode(all.find((e) => e.name === "xl/worksheets/sheet1.xml")!.data);
  assert.match(sheet, /<worksheet/);
  const kept = readZip(xlsx, LIMITS, (n) => n.endsWith("workbook.xml"));
  assert.deepEqual(kept.map((e) => e.name), ["xl/workbook.xml"]);
});

Deno.test("zip - what our own streaming writer makes (sizes in data descriptors) reads back", async () => {
  const chunks: Uint8Array[] = [];
  const writer = new ZipWriter((c) => Promise.resolve(void chunks.push(c.slice())));
  await writer.file("xl/worksheets/sheet1.xml", [text("<row>"), text("a".repeat(100_000))]);
  await writer.file("empty.txt", []);
  await writer.finish();
  const got = readZip(new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()), LIMITS);
  assert.deepEqual(got.map((e) => [e.name, e.data.length]), [["xl/worksheets/sheet1.xml", 100_005], [
    "empty.txt",
    0,
  ]]);
});

Deno.test("zip - stored and deflated entries come back byte for byte", () => {
  const a = text("stored ".repeat(10));
  const b = text("deflated ".repeat(1000));
  const got = readZip(zip([{ name: "a.txt", data: a, stored: true }, { name: "b.txt", data: b }]), LIMITS);
  assert.deepEqual(got, [{ name: "a.txt", data: a }, { name: "b.txt", data: b }]);
});

Deno.test("zip - a 4 GB bomb is refused once the real bytes pass the cap, without unpacking the rest", () => {
  const bomb = zip([{ name: "xl/worksheets/sheet1.xml", deflated: zerosDeflated(4096), declared: 1000 }]);
  assert.ok(bomb.length < 5 * MB, `the bomb itself is small: ${bomb.length}`);
  const started = performance.now();
  refused(() => readZip(bomb, LIMITS), "too_large");
  // Unpacking all of it would take many seconds and 4 GB; stopping at 40 MB takes a few dozen ms.
  const ms = performance.now() - started;
  assert.ok(ms < 2000, `took ${ms} ms`);
});

Deno.test("zip - a central directory understating sizes is caught by the bytes counted, across entries", () => {
  const lying = zip(
    [1, 2, 3].map((n) => ({ name: `part${n}.xml`, deflated: zerosDeflated(15), declared: 10 })),
  );
  refused(() => readZip(lying, LIMITS), "too_large");
  const small = zip([{ name: "a.xml", data: text("x".repeat(500)), declared: 10 }]);
  refused(() => readZip(small, LIMITS), "unreadable");
});

Deno.test("zip - a directory that declares too much is refused before inflating", () => {
  const honest = zip([{ name: "a.xml", data: text("x"), declared: 41 * MB }]);
  refused(() => readZip(honest, LIMITS), "too_large");
});

Deno.test("zip - more entries than allowed is refused; the limit itself is fine", () => {
  const many = (n: number) => zip(Array.from({ length: n }, (_, i) => ({ name: `f${i}`, data: text("x") })));
  assert.equal(readZip(many(10), { ...LIMITS, maxEntries: 10 }).length, 10);
  refused(() => readZip(many(11), { ...LIMITS, maxEntries: 10 }), "too_large");
});

Deno.test("zip - truncated, not a zip, or a damaged deflate stream is unreadable", () => {
  const good = zip([{ name: "a.xml", data: text("hello ".repeat(2000)) }]);
  refused(() => readZip(good.subarray(0, good.length - 30), LIMITS), "unreadable");
  refused(() => readZip(good.subarray(0, 40), LIMITS), "unreadable");
  refused(() => readZip(text("name,qty\nA,1\n"), LIMITS), "unreadable");
  const damaged = good.slice();
  damaged.fill(0xff, 40, 60);
  refused(() => readZip(damaged, LIMITS), "unreadable");
});

Deno.test("zip - zip64 markers (locator, 0xFFFFFFFF sizes) are refused as too large", () => {
  refused(() => readZip(zip([{ name: "a", data: text("x") }], { zip64Locator: true }), LIMITS), "too_large");
  const marked = zip([{ name: "a", data: text("x"), declared: 0xffffffff }]);
  refused(() => readZip(marked, LIMITS), "too_large");
});
