import { and, count, eq, max } from "drizzle-orm";
import { inspection_photos } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { parse } from "../../../lib/validate.ts";
import { deleteFileIfUnused, storeFile } from "../../../files/service.ts";
import { imageUpload } from "../../../files/image_upload.ts";
import {
  CAPTION_FIELD,
  IMAGE_FIELD,
  type InspectionMedia,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_SIDE,
  MAX_PHOTOS,
  PHOTO_TOO_LARGE,
  PHOTO_TYPE_MESSAGE,
  PhotoFields,
  TOO_MANY_PHOTOS,
} from "../photo_schemas.ts";
import { inspectionInScope, mediaOf, requireMediaEdit } from "./media.ts";

/**
 * POST /api/pt/inspections/{id}/photos (multipart `file` and `caption`, read once the caller may add):
 * the photo goes after the inspection's others. Checked before the write queue is held: the caption, then the image by its bytes
 * (JPEG or PNG, at most MAX_PHOTO_BYTES (413) and MAX_PHOTO_SIDE px); inside the write, the inspection
 * (404 out of scope) and the count (422 past MAX_PHOTOS).
 */
export async function addPhoto(
  ctx: Ctx,
  id: number,
  readForm: () => Promise<Record<string, unknown>>,
): Promise<InspectionMedia> {
  requireMediaEdit(ctx);
  const form = await readForm();
  const { caption } = parse(PhotoFields, { caption: form[CAPTION_FIELD] });
  const image = await imageUpload(form[IMAGE_FIELD], {
    field: IMAGE_FIELD,
    maxBytes: MAX_PHOTO_BYTES,
    maxSide: MAX_PHOTO_SIDE,
    types: ["image/jpeg", "image/png"],
    tooLarge: PHOTO_TOO_LARGE,
    wrongType: PHOTO_TYPE_MESSAGE,
    what: "photo",
  });
  return await ctx.tdb.write(async (tx) => {
    await inspectionInScope(tx, ctx.user, id);
    const [{ n, last }] = await tx.select({ n: count(), last: max(inspection_photos.position) })
      .from(inspection_photos).where(eq(inspection_photos.inspection_id, id));
    if (n >= MAX_PHOTOS) throw invalid(IMAGE_FIELD, TOO_MANY_PHOTOS);
    const fileId = await storeFile(tx, image);
    await tx.insert(inspection_photos).values({
      inspection_id: id,
      file_id: fileId,
      position: (last ?? 0) + 1,
      caption,
      width: image.width,
      height: image.height,
    });
    return { ...(await mediaOf(tx, id)), message: "Photo added" };
  });
}

/** DELETE /api/pt/inspections/{id}/photos/{photoId}: the photo goes, and its bytes unless shared. */
export async function removePhoto(ctx: Ctx, id: number, photoId: number): Promise<InspectionMedia> {
  requireMediaEdit(ctx);
  return await ctx.tdb.write(async (tx) => {
    await inspectionInScope(tx, ctx.user, id);
    const photo = await tx.select({ file_id: inspection_photos.file_id }).from(inspection_photos)
      .where(and(eq(inspection_photos.id, photoId), eq(inspection_photos.inspection_id, id))).get();
    if (!photo) throw new AppError("not_found", "Photo not found.");
    await tx.delete(inspection_photos).where(eq(inspection_photos.id, photoId));
    await deleteFileIfUnused(tx, photo.file_id);
    return { ...(await mediaOf(tx, id)), message: "Photo removed" };
  });
}
