import { Buffer } from "node:buffer";
import { inflateSync } from "node:zlib";

/**
 * The company logo drawn on ticket, quote and invoice PDFs. pdfkit unpacks a PNG with transparency (or
 * interlaced, or with an indexed alpha) into width x height pixels on every print: a 468-byte PNG declaring
 * 100000 x 100000 made it allocate 40 GB inside a zlib callback, an uncaught error that ended the whole
 * process; an honest 4096 x 4096 RGBA logo costs about 2 seconds and 370 MB per print (decision 011). So the
 * header is read first and only a logo within these limits reaches pdfkit. A logo is drawn 120 x 50 points: 4
 * megapixels is already far more than it shows.
 */
export const LOGO_LIMITS = { maxBytes: 512 * 1024, maxSide: 4096, maxPixels: 4 * 1024 * 1024 };

export const LOGO_UNREADABLE = "The company logo is not a readable PNG or JPEG image.";
export const logoTooLarge = () =>
  `The company logo is too large: at most ${LOGO_LIMITS.maxBytes / 1024} KB, ${LOGO_LIMITS.maxSide} pixels ` +
  `on a side and ${LOGO_LIMITS.maxPixels / 1024 / 1024} megapixels.`;
export const LOGO_NOT_IMAGE = "The company logo must be an image (a data:image URL) or a link to one.";

export interface ImageHeader {
  type: "png" | "jpeg";
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bits per pixel per sample, by PNG colour type (grey, -, RGB, palette, grey+alpha, -, RGBA). */
const PNG_SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** x0, y0, dx, dy of the seven Adam7 passes (one pass when not interlaced). */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [
  0,
  1,
  1,
  2,
]];
/** JPEG start-of-frame markers (baseline, progressive, lossless...): C0-CF except DHT, JPG and DAC. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** The dimensions a PNG (IHDR) or JPEG (SOF) declares, without decoding a pixel; undefined otherwise. */
export function imageHeader(b: Uint8Array): ImageHeader | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 33 && PNG_SIGNATURE.every((x, i) => b[i] === x)) {
    if (String.fromCharCode(...b.subarray(12, 16)) !== "IHDR") return undefined;
    return { type: "png", width: v.getUint32(16), height: v.getUint32(20) };
  }
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) { // fill byte
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { // no length
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data before any frame
    if (isSof(marker)) {
      if (at + 9 > b.length) return undefined;
      return { type: "jpeg", height: v.getUint16(at + 5), width: v.getUint16(at + 7) };
    }
    at += 2 + v.getUint16(at + 2);
  }
  return undefined;
}

/**
 * A PNG's pixel data checked the way pdfkit's decoder (png-js) will read it, before it does: the IDAT
 * stream must inflate without error to no more than the rows png-js reads, each row starting with a
 * known filter. png-js does this in a zlib callback, where an error is not caught but ends the process.
 */
function pngDataReadable(b: Uint8Array, width: number, height: number): boolean {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const bits = b[24], samples = PNG_SAMPLES[b[25]], interlaced = b[28] === 1;
  if (!samples || ![1, 2, 4, 8, 16].includes(bits)) return false;
  const pixelBytes = (bits * samples) / 8;
  const passes = interlaced ? ADAM7 : [[0, 0, 1, 1]];
  const rows = passes.map(([x0, y0, dx, dy]) => ({
    h: Math.ceil((height - y0) / dy),
    length: Math.ceil(pixelBytes * Math.ceil((width - x0) / dx)),
  }));
  const expected = rows.reduce((n, r) => n + Math.max(0, r.h) * (1 + Math.max(0, r.length)), 0);
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 12 <= b.length;) {
    const length = v.getUint32(at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    if (type === "IDAT") idat.push(b.subarray(at + 8, at + 8 + length));
    if (type === "IEND") break;
    at += 12 + length;
  }
  let data: Uint8Array;
  try {
    data = inflateSync(Buffer.concat(idat), { maxOutputLength: Math.max(expected, 1) });
  } catch {
    return false; // corrupt, or more data than the image holds (a bomb behind a modest header)
  }
  let pos = 0;
  for (const { h, length } of rows) {
    for (let row = 0; row < h && pos < data.length; row++) {
      if (data[pos] > 4) return false;
      pos += 1 + length;
    }
  }
  return true;
}

/** Why these image bytes are not drawn (a sentence), or undefined when they may reach pdfkit. */
export function logoProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length > LOGO_LIMITS.maxBytes) return logoTooLarge();
  const header = imageHeader(bytes);
  if (!header || !header.width || !header.height) return LOGO_UNREADABLE;
  const { width, height } = header;
  if (
    width > LOGO_LIMITS.maxSide || height > LOGO_LIMITS.maxSide || width * height > LOGO_LIMITS.maxPixels
  ) return logoTooLarge();
  if (header.type === "png" && !pngDataReadable(bytes, width, height)) return LOGO_UNREADABLE;
  return undefined;
}

const DATA_URL = /^data:image\/(png|jpe?g);base64,/i;

function decode(value: string): Uint8Array | undefined {
  const m = DATA_URL.exec(value.slice(0, 64));
  if (!m) return undefined;
  const b64 = value.slice(m[0].length).replace(/\s+/g, "");
  if (!b64 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
  return new Uint8Array(Buffer.from(b64, "base64"));
}

/**
 * The image bytes of a `data:image/png` or `data:image/jpeg` base64 URL (the only formats pdfkit
 * draws); undefined for anything else (SVG, links, garbage, more than LOGO_LIMITS.maxBytes). The
 * document checks the image itself (logoProblem) right before drawing it.
 */
export function logoBytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== "string" || value.length > LOGO_LIMITS.maxBytes * 1.4) return undefined;
  return decode(value);
}

/**
 * For saving company settings: why a `companyLogo` value is refused (a sentence for a 422), or
 * undefined. Links and other image types (SVG...) stay allowed for the top bar; a PNG or JPEG data URL
 * must be one the PDFs can draw.
 */
export function companyLogoProblem(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !/^(https?:\/\/|\/|data:image\/)/i.test(value)) return LOGO_NOT_IMAGE;
  if (!DATA_URL.test(value.slice(0, 64))) return undefined;
  if (value.length > LOGO_LIMITS.maxBytes * 1.4) return logoTooLarge();
  const bytes = decode(value);
  return bytes ? logoProblem(bytes) : LOGO_UNREADABLE;
}
