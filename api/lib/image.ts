/**
 * What an uploaded image really is, read from its bytes (never from the declared type or file name):
 * a JPEG or PNG whose structure holds together as far as the report's PDF writer (pdfkit) reads it,
 * and its pixel size. Only headers and chunk framing are read, never the pixels, so checking a 1.5 MB
 * photo costs a walk over its markers (JPEG) or a CRC over its bytes (PNG). Pure: no I/O.
 */
import { EXIF_HEADER, exifOrientation } from "../../lib/exif.ts";

export type ImageType = "image/jpeg" | "image/png";

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const be32 = (b: Uint8Array, at: number) =>
  ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** The JPEG's frame size: SOI, then marker segments up to the first scan, with a frame header before it. */
function jpegInfo(b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let at = 2;
  let frame: { width: number; height: number } | null = null;
  while (at < b.length) {
    if (b[at] !== 0xff) return null;
    while (b[at] === 0xff && at < b.length) at++; // fill bytes
    const marker = b[at++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd8 || marker === 0xd9 || at + 2 > b.length) return null;
    const length = be16(b, at);
    if (length < 2 || at + length > b.length) return null;
    // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width, components.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) return null;
      const components = b[at + 7];
      if (![1, 3, 4].includes(components)) return null;
      frame = { height: be16(b, at + 3), width: be16(b, at + 5) };
    }
    if (marker === 0xda) {
      // The scan data follows; a whole image ends with EOI (some cameras append bytes after it).
      if (!frame || !frame.width || !frame.height) return null;
      const tail = b.subarray(Math.max(at + length, b.length - 4096));
      for (let i = tail.length - 2; i >= 0; i--) {
        if (tail[i] === 0xff && tail[i + 1] === 0xd9) return { type: "image/jpeg", ...frame };
      }
      return null;
    }
    at += length;
  }
  return null;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each PNG colour type allows (greyscale, RGB, palette, grey+alpha, RGBA). */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

let crcTable: Uint32Array | undefined;
function crc32(b: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Channels of each PNG colour type. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A PNG's pixel data as its chunks frame it: the joined IDAT streams and what they must inflate to. */
export interface PngPixels {
  /** the zlib stream of the image data */
  idat: Uint8Array;
  /** bytes a scanline takes, after its filter-type byte */
  rowBytes: number;
  height: number;
  interlaced: boolean;
}

/** Walks a PNG: signature, a valid IHDR first, every chunk whole with its CRC, image data, IEND last. */
function pngWalk(b: Uint8Array): (ImageInfo & { pixels: PngPixels }) | null {
  if (b.length < 8 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) return null;
  let at = 8;
  let header: { width: number; height: number; rowBytes: number; interlaced: boolean } | null = null;
  const idat: Uint8Array[] = [];
  while (at + 12 <= b.length) {
    const length = be32(b, at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > b.length) return null;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== be32(b, at + 8 + length)) return null;
    if (!header) {
      if (type !== "IHDR" || length !== 13) return null;
      const [depth, color, compression, filter, interlace] = b.subarray(at + 16, at + 21);
      if (!PNG_DEPTHS[color]?.includes(depth) || compression || filter || interlace > 1) return null;
      const width = be32(b, at + 8);
      const height = be32(b, at + 12);
      if (!width || !height) return null;
      header = {
        width,
        height,
        rowBytes: Math.ceil((width * depth * PNG_CHANNELS[color]) / 8),
        interlaced: !!interlace,
      };
    } else if (type === "IDAT") idat.push(b.subarray(at + 8, at + 8 + length));
    else if (type === "IEND") {
      if (!idat.length) return null;
      const { width, height, rowBytes, interlaced } = header;
      const joined = new Uint8Array(idat.reduce((n, c) => n + c.length, 0));
      idat.reduce((offset, c) => (joined.set(c, offset), offset + c.length), 0);
      return { type: "image/png", width, height, pixels: { idat: joined, rowBytes, height, interlaced } };
    }
    at = end;
  }
  return null;
}

function pngInfo(b: Uint8Array): ImageInfo | null {
  const png = pngWalk(b);
  return png && { type: png.type, width: png.width, height: png.height };
}

/** The PNG's framed pixel data, for a check that it inflates to whole scanlines (see image_upload.ts). */
export const pngPixels = (b: Uint8Array): PngPixels | null => pngWalk(b)?.pixels ?? null;

/** The image's real type and size, or null when the bytes are not a whole JPEG or PNG. */
export function imageInfo(bytes: Uint8Array): ImageInfo | null {
  return jpegInfo(bytes) ?? pngInfo(bytes);
}

/** An image without its metadata, and the orientation that metadata asked viewers to apply. */
export interface Stripped {
  bytes: Uint8Array;
  /** EXIF orientation, 1 when upright (or none was given) */
  orientation: number;
}

/** JPEG segments kept: APP0 (JFIF), APP2 (ICC colour profile), APP14 (Adobe colour transform). */
const JPEG_KEPT_APPS = new Set([0xe0, 0xe2, 0xee]);

/**
 * A JPEG without the application segments that carry a camera's metadata (APP1 Exif and XMP with the
 * GPS position, APP13 IPTC, makers' segments): everything else, the pixels and the scan included, is
 * copied as it is. Call only on bytes `imageInfo` accepted.
 */
function jpegWithoutMetadata(b: Uint8Array): Stripped {
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let orientation = 1;
  let at = 2;
  while (at < b.length) {
    const start = at;
    while (b[at] === 0xff && at < b.length) at++;
    const marker = b[at++];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(b.subarray(start, at));
      continue;
    }
    if (marker === 0xda) {
      parts.push(b.subarray(start));
      break;
    }
    const end = at + be16(b, at);
    const isApp = marker >= 0xe1 && marker <= 0xef && !JPEG_KEPT_APPS.has(marker);
    if (!isApp) parts.push(b.subarray(start, end));
    else if (marker === 0xe1 && EXIF_HEADER.every((v, i) => b[at + 2 + i] === v)) {
      orientation = exifOrientation(b.subarray(at + 8, end));
    }
    at = end;
  }
  return { bytes: joined(parts), orientation };
}

/** PNG chunks that carry metadata: EXIF (orientation, GPS), text (XMP, comments), the time it was made. */
const PNG_METADATA = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]);

/** A PNG without its metadata chunks; the others are copied whole (their CRCs stay right). */
function pngWithoutMetadata(b: Uint8Array): Stripped {
  const parts: Uint8Array[] = [b.subarray(0, 8)];
  let orientation = 1;
  for (let at = 8; at + 12 <= b.length;) {
    const length = be32(b, at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    const end = at + 12 + length;
    if (type === "eXIf") orientation = exifOrientation(b.subarray(at + 8, at + 8 + length));
    else if (!PNG_METADATA.has(type)) parts.push(b.subarray(at, end));
    at = end;
  }
  return { bytes: joined(parts), orientation };
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((offset, p) => (out.set(p, offset), offset + p.length), 0);
  return out;
}

/**
 * The image as it may be stored: without the metadata a camera writes (where and when it was taken, the
 * device), and with the orientation that metadata asked for, for the caller to turn a picture whose pixels
 * are not upright (image_upload.ts). The pixels are never decoded here. `type` is what `imageInfo` read
 * from the bytes.
 */
export function withoutMetadata(bytes: Uint8Array, type: ImageType): Stripped {
  return type === "image/jpeg" ? jpegWithoutMetadata(bytes) : pngWithoutMetadata(bytes);
}
