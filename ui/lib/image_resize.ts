/**
 * Shrinks a photo in the browser before it is uploaded: a phone's 12-megapixel, 4-8 MB picture becomes
 * a JPEG of at most `maxSide` pixels on its longest side and `maxBytes` bytes, usually 0.2-0.6 MB, so
 * an inspector on a poor connection sends a fraction of the bytes. The camera's orientation is applied
 * (createImageBitmap reads EXIF), and transparency becomes white.
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

function draw(bitmap: ImageBitmap, width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext("2d")!;
  g.fillStyle = "#fff";
  g.fillRect(0, 0, width, height);
  g.imageSmoothingQuality = "high";
  g.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

/** The photo as a JPEG within the rules; throws an Error with a sentence for the user. */
export async function resizeImage(file: Blob, rules: ResizeRules): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error(UNREADABLE_IMAGE);
  }
  try {
    let scale = Math.min(1, rules.maxSide / Math.max(bitmap.width, bitmap.height));
    for (let tries = 0; tries < MAX_TRIES; scale *= SHRINK) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = draw(bitmap, width, height);
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
