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

/**
 * A short Y4M video (what Chromium's fake camera plays, looped) whose frames show the QR code of `text`,
 * black on white, centred on a 640x480 frame: a label held up to the camera.
 */
export async function qrVideo(text: string, path: string): Promise<void> {
  const { default: encodeQR } = await import("qr");
  const matrix = encodeQR(text, "raw", { border: 4 });
  const [w, h] = [640, 480];
  const scale = Math.floor(360 / matrix.length);
  const left = Math.floor((w - matrix.length * scale) / 2);
  const top = Math.floor((h - matrix.length * scale) / 2);
  const luma = new Uint8Array(w * h).fill(255);
  matrix.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (!dark) return;
      for (let y = 0; y < scale; y++) {
        luma.fill(
          0,
          (top + r * scale + y) * w + left + c * scale,
          (top + r * scale + y) * w + left + (c + 1) * scale,
        );
      }
    })
  );
  const chroma = new Uint8Array((w / 2) * (h / 2) * 2).fill(128);
  const head = new TextEncoder().encode(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`);
  const frame = new TextEncoder().encode("FRAME\n");
  const parts = [head];
  for (let i = 0; i < 5; i++) parts.push(frame, luma, chroma);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  await Deno.writeFile(path, out);
}
