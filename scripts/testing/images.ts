// Real JPEG and PNG bytes for tests of image uploads and the report's photos.
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";
import { decode, encode } from "jpeg-js";

/** A 40 x 30 JPEG (a green card with a white square), as Chromium's canvas encodes it. */
export const JPEG_40X30 = new Uint8Array(Buffer.from(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAeACgDASIAAhEBAxEB/8QAGAABAQEBAQAAAAAAAAAAAAAAAAgHBgT/xAAnEAABAgUCBgMBAAAAAAAAAAAAAQIDBAUGEwcREiExNoOzF1Wk0v/EABgBAAMBAQAAAAAAAAAAAAAAAAIEBQMG/8QAIhEAAQQBBAIDAAAAAAAAAAAAAQACAxEEBRITUUGBFCEx/9oADAMBAAIRAxEAPwDzgFC6VdhUvy+14qxu40uFwMP5khj3VQvvpT0CsTk9Vewqp4vawMxULtUptD4o3Scl0Cfzr2p6ABioCGyaf3nQKTaMhJVCfxTMLJxswxHbbxHKnNGqnRUMbATXFpsJrEy34jy9gF1X2qF+RLW+0/PF/k57UC86BVrRn5Knz+WZi4+BmGI3faI1V5q1E6IpjYDMpIpOy61PKwsIFEV58+0ABkpC/9k=",
  "base64",
));

const SOF0 = 0xc0;

/** The JPEG with its frame header claiming `width` x `height` (the pixels stay 40 x 30's). */
export function jpegClaiming(width: number, height: number, base = JPEG_40X30): Uint8Array {
  const out = base.slice();
  for (let at = 2; at < out.length;) {
    const marker = out[at + 1];
    const length = (out[at + 2] << 8) | out[at + 3];
    if (marker === SOF0) {
      out.set([height >> 8, height & 0xff, width >> 8, width & 0xff], at + 5);
      return out;
    }
    at += 2 + length;
  }
  throw new Error("no SOF0 in the JPEG");
}

/** The JPEG padded with comment segments to `size` bytes (a valid file, just heavy). */
export function jpegOfBytes(size: number, base = JPEG_40X30): Uint8Array {
  const out = new Uint8Array(size);
  out.set(base.subarray(0, 2));
  let at = 2;
  for (let pad = size - base.length; pad >= 4;) {
    let segment = Math.min(65537, pad);
    if (pad - segment > 0 && pad - segment < 4) segment -= 4; // leave room for a whole last one
    out.set([0xff, 0xfe, (segment - 2) >> 8, (segment - 2) & 0xff], at);
    at += segment;
    pad -= segment;
  }
  out.set(base.subarray(2), at);
  return out.subarray(0, at + base.length - 2);
}

/** The JPEG with a comment segment holding `tag` after its start: bytes of their own, same picture. */
export function jpegTagged(tag: string, base = JPEG_40X30): Uint8Array {
  const text = new TextEncoder().encode(tag);
  const segment = [0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff, ...text];
  return new Uint8Array([...base.subarray(0, 2), ...segment, ...base.subarray(2)]);
}

function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const v of b) {
    c ^= v;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A real RGBA PNG of `width` x `height`: dark ink on transparent, like a drawn signature. */
export function png(width: number, height: number): Uint8Array {
  const rows = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    const x = Math.floor((y / height) * width); // a diagonal stroke
    rows.set([0x10, 0x20, 0x40, 0xff], y * (1 + width * 4) + 1 + x * 4);
  }
  return pngOf(width, height, new Uint8Array(deflateSync(rows)));
}

/**
 * An RGBA PNG whose chunks are all well formed (CRCs right) around `idat` as its image data, which may
 * be anything: damaged or short pixel data behind a valid frame.
 */
export function pngOf(width: number, height: number, idat: Uint8Array, interlace = 0): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, interlace], 8);
  const parts = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * An EXIF block (TIFF, big-endian) as cameras write it: IFD0 with the orientation (1-8) and a pointer to
 * a GPS IFD holding a latitude (52 N) when `gps` is set.
 */
export function exifTiff(
  { orientation = 1, gps = false }: { orientation?: number; gps?: boolean },
): Uint8Array {
  const out = new Uint8Array(8 + 2 + 24 + 4 + 2 + 24 + 4 + 24);
  const v = new DataView(out.buffer);
  out.set([0x4d, 0x4d, 0x00, 0x2a]);
  v.setUint32(4, 8);
  v.setUint16(8, gps ? 2 : 1);
  v.setUint16(10, 0x0112); // Orientation, SHORT, 1
  v.setUint16(12, 3);
  v.setUint32(14, 1);
  v.setUint16(18, orientation);
  const gpsIfd = 8 + 2 + 24 + 4;
  if (gps) {
    v.setUint16(22, 0x8825); // GPSInfo, LONG, 1
    v.setUint16(24, 4);
    v.setUint32(26, 1);
    v.setUint32(30, gpsIfd);
    v.setUint16(gpsIfd, 2);
    v.setUint16(gpsIfd + 2, 0x0001); // GPSLatitudeRef, ASCII, "N"
    v.setUint16(gpsIfd + 4, 2);
    v.setUint32(gpsIfd + 6, 2);
    out.set([0x4e, 0], gpsIfd + 10);
    v.setUint16(gpsIfd + 14, 0x0002); // GPSLatitude, RATIONAL x 3
    v.setUint16(gpsIfd + 16, 5);
    v.setUint32(gpsIfd + 18, 3);
    const values = gpsIfd + 2 + 24 + 4;
    v.setUint32(gpsIfd + 22, values);
    [52, 1, 30, 1, 0, 1].forEach((n, i) => v.setUint32(values + i * 4, n));
  }
  return out;
}

/** The JPEG with an APP1 Exif segment (orientation, GPS) right after its start, as a phone writes it. */
export function jpegWithExif(base: Uint8Array, exif: { orientation?: number; gps?: boolean }): Uint8Array {
  const tiff = exifTiff(exif);
  const length = 2 + 6 + tiff.length;
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...new TextEncoder().encode("Exif\0\0"), ...tiff];
  return new Uint8Array([...base.subarray(0, 2), ...app1, ...base.subarray(2)]);
}

/** The PNG with an eXIf chunk (orientation, GPS) and an XMP text chunk after its header. */
export function pngWithExif(base: Uint8Array, exif: { orientation?: number; gps?: boolean }): Uint8Array {
  const ihdrEnd = 8 + 12 + 13;
  const xmp = new TextEncoder().encode("XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta><exif:GPSLatitude>52,30N");
  return new Uint8Array(Buffer.concat([
    base.subarray(0, ihdrEnd),
    chunk("eXIf", exifTiff(exif)),
    chunk("iTXt", xmp),
    base.subarray(ihdrEnd),
  ]));
}

/**
 * A real `width` x `height` JPEG (jpeg-js, quality 95) whose corners tell its turns apart: the left half
 * red, the right half blue, a green 10 x 10 block in the top left corner. With `exif`, an APP1 Exif
 * segment (orientation, GPS) after its start, as a phone writes it.
 */
export function cornerJpeg(
  width: number,
  height: number,
  exif?: { orientation?: number; gps?: boolean },
): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rgb = x < 10 && y < 10 ? [0, 200, 0] : x < width / 2 ? [220, 0, 0] : [0, 0, 220];
      data.set([...rgb, 255], (y * width + x) * 4);
    }
  }
  const jpeg = new Uint8Array(encode({ data, width, height }, 95).data);
  return exif ? jpegWithExif(jpeg, exif) : jpeg;
}

/** The colour at (x, y) of a JPEG, by name: "red", "green", "blue" (JPEG's loss tolerated), else "other". */
export function colourAt(jpeg: Uint8Array, x: number, y: number): string {
  const { width, data } = decode(jpeg, { useTArray: true, formatAsRGBA: true });
  const [r, g, b] = data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3);
  if (r > 150 && g < 80 && b < 80) return "red";
  if (g > 140 && r < 80 && b < 80) return "green";
  if (b > 150 && r < 80 && g < 80) return "blue";
  return `other (${r}, ${g}, ${b})`;
}
