/**
 * One scan of an uploaded PDF for scripts per worker (pdf_scripts.ts does the walk, pdf_scripts_check.ts is
 * the parent); the parent terminates the worker afterwards, which returns pdf-lib's parsed objects at once.
 *
 * JavaScript, and the walk imported by a computed specifier, on purpose (decision 010): `deno test`
 * type-checks a worker's TypeScript and static graph each time one starts.
 */
const WALK = "./pdf_scripts.ts";

self.onmessage = async (e) => {
  try {
    const { pdfScript } = await import(WALK);
    self.postMessage({ found: await pdfScript(e.data.pdf, e.data.unpacked) ?? null });
  } catch (err) {
    self.postMessage({ failed: err instanceof Error ? err.message : String(err) });
  }
};
