import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { AppError } from "../../lib/errors.ts";
import { renderPdf } from "./pdf.ts";
import { MERGE_BUSY, MERGE_LIMITS, mergeLoad, mergePdfs, mergeTooSlow } from "./pdf_merge.ts";
import { gate, loopGap, manyPagesPdf } from "./pdf_merge_fixture.ts";

const pdf = (label: string, pages = 1) =>
  renderPdf((doc) => {
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.text(`${label} page ${p}`);
    }
  }, { pageNumbers: false });
const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();
const broken = () => new TextEncoder().encode("%PDF-1.7 not really a pdf");

Deno.test("pdf merge - the report, then each readable attachment's pages; a notice where one cannot be read", async () => {
  const seen: (number | null)[][] = [];
  const merged = await mergePdfs([await pdf("cert", 2), broken(), await pdf("chart")], async (pages) => {
    seen.push(pages);
    return {
      report: await pdf("report"),
      notices: await Promise.all(pages.map((p) => (p === null ? pdf("notice") : null))),
    };
  });
  assert.deepEqual(seen, [[2, null, 1]], "the plan is drawn once, knowing each attachment's page count");
  assert.equal(await pageCount(merged), 1 + 2 + 1 + 1);
  assert.deepEqual(mergeLoad(), { active: 0, waiting: 0 });
});

Deno.test("pdf merge - a plan may finish the document itself, and no notice means nothing appended", async () => {
  const done = await pdf("final");
  assert.equal(await mergePdfs([broken()], () => Promise.resolve(done)), done);
  const merged = await mergePdfs(
    [broken()],
    async () => ({ report: await pdf("report", 2), notices: [null] }),
  );
  assert.equal(await pageCount(merged), 2);
});

Deno.test("pdf merge - beyond the merges running and waiting, 429 with Retry-After at once; slots given back", async () => {
  const held = gate();
  const small = await pdf("cert");
  const plan = async () => {
    await held.wait;
    return { report: await pdf("report"), notices: [null] };
  };
  const n = MERGE_LIMITS.running + MERGE_LIMITS.waiting + 2;
  const calls = Array.from({ length: n }, () => mergePdfs([small], plan).then(() => 200, (e) => e));
  const refused = await Promise.race([
    Promise.all(calls.slice(-2)),
    new Promise((r) => setTimeout(() => r("still waiting"), 5_000)),
  ]);
  assert.ok(Array.isArray(refused), "the merges beyond the bound are refused at once, not queued");
  for (const e of refused) {
    assert.ok(e instanceof AppError, String(e));
    assert.deepEqual([e.status, e.message, e.headers], [429, MERGE_BUSY, {
      "Retry-After": String(MERGE_LIMITS.retryAfterSeconds),
    }]);
  }
  assert.deepEqual(mergeLoad(), { active: MERGE_LIMITS.running, waiting: MERGE_LIMITS.waiting });
  held.open();
  assert.deepEqual(await Promise.all(calls.slice(0, -2)), Array(n - 2).fill(200));
  assert.deepEqual(mergeLoad(), { active: 0, waiting: 0 });
});

Deno.test("pdf merge - a hostile attachment is read off the event loop; over the time limit it answers 422", async () => {
  const hostile = manyPagesPdf(30_000); // many seconds of pdf-lib work, on any machine
  const plan = async () => ({ report: await pdf("report"), notices: [null] });
  const { result, gap } = await loopGap(() =>
    mergePdfs([hostile], plan, 1500).then(() => "merged", (e) => e)
  );
  assert.ok(result instanceof AppError, `expected the time limit, got ${result}`);
  assert.deepEqual([result.status, result.message], [422, mergeTooSlow(1500)]);
  // pdf-lib on this thread holds it for seconds with this file (copyPages alone); in a worker, ticks
  // keep coming (the margin is for a busy machine).
  assert.ok(gap < 1000, `the event loop stalled for ${Math.round(gap)} ms`);
  assert.deepEqual(mergeLoad(), { active: 0, waiting: 0 }, "the slot was given back");
  assert.equal(await pageCount(await mergePdfs([await pdf("cert")], plan)), 2);
});
