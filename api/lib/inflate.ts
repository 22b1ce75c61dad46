/** Input fed to the inflater at a time: deflate expands at most ~1032x, so one step makes <= 4 MB. */
const FEED = 4096;

/** Thrown when the output passes its budget. */
export class TooComplex extends Error {}

/**
 * Inflates zlib data (FlateDecode) with the runtime's native DecompressionStream, a small piece at a
 * time so the event loop keeps turning, and stops as soon as the output passes `budget`. Damaged data
 * answers what came out before the damage (pdf-lib reads it the same lenient way), or with `strict`
 * throws the inflater's error (a reader that fails on damage, like png-js, must not meet it later).
 */
export async function inflateAtMost(data: Uint8Array, budget: number, strict = false): Promise<Uint8Array> {
  const stream = new DecompressionStream("deflate");
  const writer = stream.writable.getWriter();
  (async () => {
    for (let at = 0; at < data.length; at += FEED) {
      await writer.ready;
      await writer.write(data.slice(at, at + FEED));
    }
    await writer.close();
  })().catch(() => {}); // the reader below sees the same failure
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      total += r.value.length;
      if (total > budget) throw new TooComplex();
      chunks.push(r.value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    if (e instanceof TooComplex || strict) throw e;
  }
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}
