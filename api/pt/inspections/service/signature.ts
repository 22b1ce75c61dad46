import { eq } from "drizzle-orm";
import { inspection_signatures } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { deleteFileIfUnused, storeFile } from "../../../files/service.ts";
import { imageUpload } from "../../../files/image_upload.ts";
import {
  IMAGE_FIELD,
  type InspectionMedia,
  MAX_SIGNATURE_BYTES,
  MAX_SIGNATURE_SIDE,
  SIGNATURE_TOO_LARGE,
  SIGNATURE_TYPE_MESSAGE,
} from "../photo_schemas.ts";
import { inspectionInScope, mediaOf, requireMediaEdit } from "./media.ts";

/**
 * PUT /api/pt/inspections/{id}/signature (multipart `file`, read once the caller may sign): the signature drawn on screen, a PNG of at
 * most MAX_SIGNATURE_BYTES (413) and MAX_SIGNATURE_SIDE px, replaces any earlier one. The signer is
 * the user saving it, at this moment (UTC); their name is kept with it for the report.
 */
export async function saveSignature(
  ctx: Ctx,
  id: number,
  readPart: () => Promise<unknown>,
): Promise<InspectionMedia> {
  requireMediaEdit(ctx);
  const image = await imageUpload(await readPart(), {
    field: IMAGE_FIELD,
    maxBytes: MAX_SIGNATURE_BYTES,
    maxSide: MAX_SIGNATURE_SIDE,
    types: ["image/png"],
    tooLarge: SIGNATURE_TOO_LARGE,
    wrongType: SIGNATURE_TYPE_MESSAGE,
    what: "signature",
  });
  return await ctx.tdb.write(async (tx) => {
    await inspectionInScope(tx, ctx.user, id);
    const before = await tx.select({ file_id: inspection_signatures.file_id }).from(inspection_signatures)
      .where(eq(inspection_signatures.inspection_id, id)).get();
    const fileId = await storeFile(tx, image);
    const signed = {
      file_id: fileId,
      signer_name: ctx.user.name,
      signed_by: ctx.user.id,
      width: image.width,
      height: image.height,
      signed_at: nowStamp(),
    };
    await tx.insert(inspection_signatures).values({ inspection_id: id, ...signed })
      .onConflictDoUpdate({ target: inspection_signatures.inspection_id, set: signed });
    if (before && before.file_id !== fileId) await deleteFileIfUnused(tx, before.file_id);
    return { ...(await mediaOf(tx, id)), message: "Signature saved" };
  });
}

/** DELETE /api/pt/inspections/{id}/signature: the inspection is no longer signed. */
export async function removeSignature(ctx: Ctx, id: number): Promise<InspectionMedia> {
  requireMediaEdit(ctx);
  return await ctx.tdb.write(async (tx) => {
    await inspectionInScope(tx, ctx.user, id);
    const [gone] = await tx.delete(inspection_signatures).where(eq(inspection_signatures.inspection_id, id))
      .returning({ file_id: inspection_signatures.file_id });
    if (!gone) throw new AppError("not_found", "The inspection has no signature.");
    await deleteFileIfUnused(tx, gone.file_id);
    return { ...(await mediaOf(tx, id)), message: "Signature removed" };
  });
}
