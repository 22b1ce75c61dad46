import { AppError, invalid } from "../../lib/errors.ts";
import { type ImageInfo, imageInfo, type ImageType, pngPixels, withoutMetadata } from "../lib/image.ts";
import { inflateAtMost } from "../lib/inflate.ts";
import type { Upload } from "./service.ts";

export interface ImageRules {
  /** the multipart field, for the 422's path */
  field: string;
  maxBytes: number;
  /** the longest side in pixels */
  maxSide: number;
  types: readonly ImageType[];
  /** 413's sentence */
  tooLarge: string;
  /** 422's sentence when the bytes are not one of `types` */
  wrongType: string;
  /** "photo", "signature": how the other sentences name the image */
  what: string;
}

/**
 * A multipart image part, checked by its bytes: at most `maxBytes` (413), a whole JPEG or PNG of an
 * allowed type whatever it is declared or named as, at most `maxSide` pixels on its longest side (422 at
 * `field`). The stored type is the one read from the bytes. What is stored has no camera metadata (EXIF
 * with the GPS position, XMP, IPTC; no company setting keeps it): the pixels are copied, never decoded,
 * so a picture whose EXIF orientation says it is turned or mirrored is refused (422): its pixels are not
 * upright, and the app's own upload (ui/lib/image_resize.ts) turns them before it sends.
 */
export async function imageUpload(part: unknown, rules: ImageRules): Promise<Upload & ImageInfo> {
  if (!(part instanceof File)) throw invalid(rules.field, `Choose a ${rules.what}`);
  if (part.size > rules.maxBytes) throw new AppError("too_large", rules.tooLarge);
  const data = new Uint8Array(await part.arrayBuffer());
  if (data.byteLength > rules.maxBytes) throw new AppError("too_large", rules.tooLarge);
  const info = imageInfo(data);
  if (!info || !rules.types.includes(info.type)) throw invalid(rules.field, rules.wrongType);
  if (Math.max(info.width, info.height) > rules.maxSide) {
    throw invalid(
      rules.field,
      `The ${rules.what} must be at most ${rules.maxSide} pixels on its longest side`,
    );
  }
  const clean = withoutMetadata(data, info.type);
  if (clean.orientation !== 1) {
    throw invalid(
      rules.field,
      `The ${rules.what} is stored turned or mirrored (its camera orientation tag says so): send it upright`,
    );
  }
  if (info.type === "image/png") await checkPngPixels(clean.bytes, rules);
  const extension = info.type === "image/png" ? "png" : "jpg";
  return { ...info, name: `${rules.what}.${extension}`, content_type: info.type, data: clean.bytes };
}

/**
 * A PNG's pixel data must inflate, undamaged, to exactly its scanlines, each with a known filter: the
 * report's PDF writer decodes PNGs with transparency in a callback where a failure would be uncaught.
 * Interlaced PNGs (which no canvas writes) are refused rather than checked pass by pass.
 */
async function checkPngPixels(data: Uint8Array, rules: ImageRules): Promise<void> {
  const pixels = pngPixels(data)!;
  if (pixels.interlaced) throw invalid(rules.field, `The ${rules.what} must not be an interlaced PNG`);
  const size = pixels.height * (1 + pixels.rowBytes);
  let raw: Uint8Array;
  try {
    raw = await inflateAtMost(pixels.idat, size, true);
  } catch {
    throw invalid(rules.field, rules.wrongType);
  }
  let filtersKnown = raw.length === size;
  for (let at = 0; filtersKnown && at < size; at += 1 + pixels.rowBytes) filtersKnown = raw[at] <= 4;
  if (!filtersKnown) throw invalid(rules.field, rules.wrongType);
}
