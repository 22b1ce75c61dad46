import decodeQR from "qr/decode.js";

/** A grey image: one byte a pixel, rows top to bottom. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * One page of a PDF rasterised by poppler's `pdftoppm` (as a printer would see it), grey, at `dpi`: for
 * tests that read back what a PDF draws (QR labels).
 */
export async function rasterPage(pdf: Uint8Array, page: number, dpi = 200): Promise<GreyImage> {
  const cmd = new Deno.Command("pdftoppm", {
    args: ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = cmd.stdin.getWriter();
  await writer.write(pdf);
  await writer.close();
  const out = await cmd.output();
  if (!out.success) throw new Error(`pdftoppm failed: ${new TextDecoder().decode(out.stderr)}`);
  return parsePgm(out.stdout);
}

/** A binary PGM (P5, 8 bits): what pdftoppm -gray writes. */
function parsePgm(bytes: Uint8Array): GreyImage {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 64));
  const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  if (!m) throw new Error("not a binary PGM");
  const [width, height] = [Number(m[1]), Number(m[2])];
  return { width, height, data: bytes.subarray(m[0].length, m[0].length + width * height) };
}

/** The part of an image inside a rectangle given in PDF points (the page's coordinates). */
export function crop(img: GreyImage, dpi: number, x: number, y: number, w: number, h: number): GreyImage {
  const s = dpi / 72;
  const [left, top] = [Math.round(x * s), Math.round(y * s)];
  const width = Math.min(Math.round(w * s), img.width - left);
  const height = Math.min(Math.round(h * s), img.height - top);
  const data = new Uint8Array(width * height);
  for (let r = 0; r < height; r++) {
    data.set(
      img.data.subarray((top + r) * img.width + left, (top + r) * img.width + left + width),
      r * width,
    );
  }
  return { width, height, data };
}

/** The text of the QR code in a grey image, with the decoder the browser's scan dialog uses. */
export function readQr(img: GreyImage): string {
  // A grey image is the luma plane of I420: the decoder reads that plane and ignores the chroma.
  return decodeQR(img, { format: "I420" });
}
