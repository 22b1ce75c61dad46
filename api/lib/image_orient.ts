/**
 * A JPEG turned upright: its pixels decoded (jpeg-js, pure JavaScript), moved as its EXIF orientation asks
 * (2-8: mirrored, turned, or both), and encoded again. Synchronous and CPU-bound (a 1600 x 1600 photo takes
 * a few hundred milliseconds), so it runs in a worker (image_orient_check.ts); pure, so a test can call it.
 *
 * What comes out is a baseline JPEG with a JFIF header and nothing else: no EXIF (its orientation, a GPS
 * position), no XMP, no ICC profile (a phone's photo is sRGB or close to it: Display P3 photos lose a
 * little saturation).
 */
import { decode, encode } from "jpeg-js";

/** jpeg-js's quality (1-100): 90 keeps a photo's detail at about the size a phone writes. */
export const UPRIGHT_QUALITY = 90;

/** An image's RGBA pixels, 4 bytes a pixel, row after row. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The pixels as a viewer shows them under EXIF `orientation` (1-8; 1 and anything else: as they are).
 * 5-8 swap width and height. Each target pixel is read from the source at the place the orientation
 * names (the inverse of the transforms TIFF 6.0 and the EXIF specification define).
 */
export function orientPixels(src: Pixels, orientation: number): Pixels {
  if (!(orientation >= 2 && orientation <= 8)) return src;
  const { width: w, height: h } = src;
  const swap = orientation >= 5;
  const width = swap ? h : w;
  const height = swap ? w : h;
  const from = new Uint32Array(src.data.buffer, src.data.byteOffset, w * h);
  const data = new Uint8Array(width * height * 4);
  const to = new Uint32Array(data.buffer);
  // source index of target (x, y): sx + sy * w
  const at: (x: number, y: number) => number = {
    2: (x: number, y: number) => w - 1 - x + y * w,
    3: (x: number, y: number) => w - 1 - x + (h - 1 - y) * w,
    4: (x: number, y: number) => x + (h - 1 - y) * w,
    5: (x: number, y: number) => y + x * w,
    6: (x: number, y: number) => y + (h - 1 - x) * w,
    7: (x: number, y: number) => w - 1 - y + (h - 1 - x) * w,
    8: (x: number, y: number) => w - 1 - y + x * w,
  }[orientation]!;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) to[i] = from[at(x, y)];
  }
  return { width, height, data };
}

/**
 * `jpeg` decoded, turned upright under `orientation` and encoded again; `maxSide` bounds what the decoder
 * may allocate (the caller has already checked the frame's size, this also holds for a lying one).
 * Throws on a JPEG jpeg-js cannot decode (arithmetic coding, damaged data).
 */
export function uprightJpeg(jpeg: Uint8Array, orientation: number, maxSide: number): Uint8Array {
  const pixels = decode(jpeg, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: (maxSide * maxSide) / 1e6,
    // as jpeg-js counts what it allocates: its blocks (4 bytes a sample), its planes (1), its interleaved
    // copy (1) and the RGBA output (4 a pixel); three components at full resolution: 22 bytes a pixel
    maxMemoryUsageInMB: Math.ceil((maxSide * maxSide * 22) / (1024 * 1024)) + 4,
  });
  const upright = orientPixels(pixels, orientation);
  return new Uint8Array(encode(upright, UPRIGHT_QUALITY).data);
}
