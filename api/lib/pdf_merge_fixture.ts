/**
 * Hostile PDFs for tests, made by hand so they are small: what matters is how much pdf-lib does with
 * them, not their size.
 */

/**
 * A valid PDF of `n` blank pages in one flat page tree: 15,000 pages are 0.9 MB (within the upload
 * limit, no compressed stream to count), and pdf-lib's `copyPages` spends seconds on them in one
 * synchronous piece, growing faster than the page count (measured on a two-core machine under load:
 * 8,000 pages held the event loop 0.8 to 1.2 s, 15,000 pages 2.9 s, 20,000 pages 17 s).
 */
export function manyPagesPdf(n: number): Uint8Array {
  const kids = Array.from({ length: n }, (_, i) => `${i + 3} 0 R`).join(" ");
  const parts = [
    "%PDF-1.7\n",
    "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
    `2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${n} /MediaBox [0 0 612 792] >>\nendobj\n`,
  ];
  for (let i = 3; i < n + 3; i++) parts.push(`${i} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`);
  parts.push(`trailer\n<< /Size ${n + 3} /Root 1 0 R >>\n%%EOF\n`);
  return new TextEncoder().encode(parts.join(""));
}

/** The largest gap between ticks of a 20 ms timer while `fn` runs: how long the event loop was held. */
export async function loopGap<T>(fn: () => Promise<T>): Promise<{ result: T; gap: number }> {
  let gap = 0;
  let last = performance.now();
  const tick = () => {
    gap = Math.max(gap, performance.now() - last);
    last = performance.now();
  };
  const ticker = setInterval(tick, 20);
  try {
    const result = await fn();
    tick();
    return { result, gap };
  } finally {
    clearInterval(ticker);
  }
}

/** A promise and the function that settles it: holds a merge's slot until a test lets go. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}
