import { AppError, invalid } from "../../lib/errors.ts";
import { type ImageInfo, imageInfo, type ImageType, pngPixels, withoutMetadata } from "../lib/image.ts";
import { inflateAtMost } from "../lib/inflate.ts";
import { OrientFailed, orientJpeg } from "../lib/image_orient_check.ts";
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
 * with the GPS position, XMP, IPTC; no company setting keeps it) and is upright:
 * - an upright picture (no orientation tag, or 1) is copied without its metadata segments, never decoded;
 * - a JPEG whose EXIF orientation says it is turned or mirrored (2-8: a phone photo sent as the camera
 *   wrote it, by an API caller or a browser without the app's own turning, ui/lib/image_resize.ts) is
 *   decoded, turned and encoded again (quality 90) in a worker (image_orient_check.ts), with no metadata;
 *   one that cannot be decoded is refused (422), and a busy server answers 429;
 * - a PNG with an orientation in an eXIf chunk is refused (422): no camera or phone writes one, and turning
 *   it would need a PNG encoder for one rare case.
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
  const extension = info.type === "image/png" ? "png" : "jpg";
  const name = `${rules.what}.${extension}`;
  if (clean.orientation !== 1) {
    if (info.type === "image/png") {
      throw invalid(
        rules.field,
        `The ${rules.what} is a PNG stored turned or mirrored (its orientation tag says so): send it upright`,
      );
    }
    const upright = await turned(clean.bytes, clean.orientation, rules);
    const size = imageInfo(upright)!;
    return { ...size, name, content_type: info.type, data: upright };
  }
  if (info.type === "image/png") await checkPngPixels(clean.bytes, rules);
  return { ...info, name, content_type: info.type, data: clean.bytes };
}

/** The JPEG turned upright, or a 422 when its pixels cannot be decoded. */
async function turned(jpeg: Uint8Array, orientation: number, rules: ImageRules): Promise<Uint8Array> {
  try {
    return await orientJpeg(jpeg, orientation, rules.maxSide);
  } catch (e) {
    if (!(e instanceof OrientFailed)) throw e;
    throw invalid(
      rules.field,
      `The ${rules.what} is stored turned or mirrored (its orientation tag says so) and its pixels could not ` +
        "be read to turn it upright: send it upright",
    );
  }
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
