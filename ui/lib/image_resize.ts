import { jpegOrientation } from "../../lib/exif.ts";

/**
 * Shrinks a photo in the browser before it is uploaded: a phone's 12-megapixel, 4-8 MB picture becomes a JPEG
 * of at most `maxSide` pixels on its longest side and `maxBytes` bytes, usually 0.2-0.6 MB (decision 024), so
 * an inspector on a poor connection sends a fraction of the bytes. The picture is sent upright: the camera's
 * EXIF orientation is applied by createImageBitmap, or here where the browser does not; the canvas writes no
 * metadata, so the EXIF (GPS position included) is not sent. Transparency becomes white.
 */
export interface ResizeRules {
  maxSide: number;
  maxBytes: number;
}

export const UNREADABLE_IMAGE =
  "This file is not a picture the browser can open. Choose a JPEG or PNG photo.";
export const IMAGE_TOO_LARGE = "The photo is still too large after shrinking it. Choose a smaller picture.";

/** JPEG qualities tried in turn; past the last, the picture itself is made smaller. */
const QUALITIES = [0.85, 0.75, 0.6];
const SHRINK = 0.75;
const MAX_TRIES = 8;

function toJpeg(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error(UNREADABLE_IMAGE))),
      "image/jpeg",
      quality,
    )
  );
}

/**
 * The canvas transform that draws a picture as EXIF orientation 2-8 asks (mirrored, turned half, turned a
 * quarter either way), for a canvas of `w` x `h` (already swapped for 5-8).
 */
const ORIENT: Record<number, (w: number, h: number) => [number, number, number, number, number, number]> = {
  2: (w) => [-1, 0, 0, 1, w, 0],
  3: (w, h) => [-1, 0, 0, -1, w, h],
  4: (_, h) => [1, 0, 0, -1, 0, h],
  5: () => [0, 1, 1, 0, 0, 0],
  6: (w) => [0, 1, -1, 0, w, 0],
  7: (w, h) => [0, -1, -1, 0, w, h],
  8: (_, h) => [0, -1, 1, 0, 0, h],
};

/** The bitmap scaled to `width` x `height`, turned as `orientation` asks (1: as it is). */
function draw(bitmap: ImageBitmap, width: number, height: number, orientation: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  const turned = orientation >= 5;
  canvas.width = turned ? height : width;
  canvas.height = turned ? width : height;
  const g = canvas.getContext("2d")!;
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.imageSmoothingQuality = "high";
  const transform = ORIENT[orientation];
  if (transform) g.setTransform(...transform(canvas.width, canvas.height));
  g.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

/** A 2 x 1 JPEG's APP1 segment saying "turn 90 degrees clockwise" (EXIF orientation 6). */
const TURN_6 = [
  0xff,
  0xe1,
  0x00,
  0x22,
  0x45,
  0x78,
  0x69,
  0x66,
  0x00,
  0x00,
  0x4d,
  0x4d,
  0x00,
  0x2a,
  0x00,
  0x00,
  0x00,
  0x08,
  0x00,
  0x01,
  0x01,
  0x12,
  0x00,
  0x03,
  0x00,
  0x00,
  0x00,
  0x01,
  0x00,
  0x06,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
];

let turnsByExif: Promise<boolean> | undefined;
/**
 * Whether this browser's createImageBitmap applies a JPEG's EXIF orientation (current Chromium, Firefox
 * and Safari do; older ones drew the sensor's pixels as they lie): asked once, with a 2 x 1 picture tagged
 * "turn 90 degrees", which comes back 1 x 2 where it does.
 */
function browserTurns(): Promise<boolean> {
  return turnsByExif ??= (async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 2;
    canvas.height = 1;
    const jpeg = new Uint8Array(await (await toJpeg(canvas, 0.9)).arrayBuffer());
    const tagged = new Uint8Array([...jpeg.subarray(0, 2), ...TURN_6, ...jpeg.subarray(2)]);
    const bitmap = await createImageBitmap(new Blob([tagged], { type: "image/jpeg" }), {
      imageOrientation: "from-image",
    });
    const turned = bitmap.width === 1;
    bitmap.close();
    return turned;
  })().catch(() => true);
}

/** The orientation left for this code to apply: the file's EXIF one where the browser ignores it. */
async function orientationToApply(file: Blob): Promise<number> {
  if (await browserTurns()) return 1;
  return jpegOrientation(new Uint8Array(await file.slice(0, 256 * 1024).arrayBuffer()));
}

/** The photo as a JPEG within the rules; throws an Error with a sentence for the user. */
export async function resizeImage(file: Blob, rules: ResizeRules): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error(UNREADABLE_IMAGE);
  }
  const orientation = await orientationToApply(file);
  try {
    let scale = Math.min(1, rules.maxSide / Math.max(bitmap.width, bitmap.height));
    for (let tries = 0; tries < MAX_TRIES; scale *= SHRINK) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = draw(bitmap, width, height, orientation);
      for (const quality of QUALITIES) {
        tries++;
        const blob = await toJpeg(canvas, quality);
        if (blob.size <= rules.maxBytes) return blob;
      }
      canvas.width = canvas.height = 0; // let the browser drop the pixels now, not at the next GC
    }
    throw new Error(IMAGE_TOO_LARGE);
  } finally {
    bitmap.close();
  }
}
