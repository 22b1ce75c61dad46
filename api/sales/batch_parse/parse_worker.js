/**
 * One parse per worker: the bytes arrive, the rows (or the error) go back, and the parent terminates
 * the worker, which returns its whole heap at once (exceljs keeps a lot in memory while it reads).
 *
 * JavaScript, and the reader imported by a computed specifier, on purpose: `deno test` type-checks a
 * worker's TypeScript and static graph each time one starts (seconds each, per parse). read_sheet.ts
 * is type-checked with the app's own graph (worker_pool.ts imports its types).
 */
const READER = "./read_sheet.ts";

self.onmessage = async (e) => {
  const { sheetResult } = await import(READER);
  self.postMessage(await sheetResult(e.data));
};
