/**
 * A camera's EXIF orientation tag, read by the server (api/lib/image.ts, which strips the metadata) and by
 * the browser (ui/lib/image_resize.ts, which turns the picture where the browser does not). Pure.
 */

const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const be32 = (b: Uint8Array, at: number) =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/**
 * The EXIF orientation (1-8) of a TIFF block (a JPEG's APP1 after "Exif\0\0", a PNG's eXIf chunk): tag
 * 0x0112 of its first IFD; 1 (upright) when absent or unreadable.
 */
export function exifOrientation(tiff: Uint8Array): number {
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (tiff.length < 8 || (!le && !(tiff[0] === 0x4d && tiff[1] === 0x4d))) return 1;
  const u16 = (at: number) => le ? tiff[at] | (tiff[at + 1] << 8) : be16(tiff, at);
  const ifd = le ? (tiff[4] | (tiff[5] << 8) | (tiff[6] << 16) | (tiff[7] << 24)) >>> 0 : be32(tiff, 4);
  if (ifd + 2 > tiff.length) return 1;
  for (let i = 0, n = u16(ifd); i < n; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** What an APP1 segment holding EXIF starts with: "Exif\0\0". */
export const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0, 0];

/**
 * The orientation a JPEG's APP1 Exif segment asks for, from its first bytes (the segments before the
 * first scan); 1 when there is none or the bytes are not a JPEG.
 */
export function jpegOrientation(b: Uint8Array): number {
  if (b[0] !== 0xff || b[1] !== 0xd8) return 1;
  for (let at = 2; at + 4 <= b.length && b[at] === 0xff;) {
    const marker = b[at + 1];
    if (marker === 0xda || marker === 0xd9) break;
    const end = at + 2 + be16(b, at + 2);
    if (marker === 0xe1 && EXIF_HEADER.every((v, i) => b[at + 4 + i] === v)) {
      return exifOrientation(b.subarray(at + 10, Math.min(end, b.length)));
    }
    at = end;
  }
  return 1;
}
