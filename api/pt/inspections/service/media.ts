import { and, asc, eq } from "drizzle-orm";
import { inspection_photos, inspection_signatures, inspections } from "../../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { AppError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { fileUrl } from "../../../files/service.ts";
import type { InspectionMedia } from "../photo_schemas.ts";
import { inspectionScope } from "./query.ts";

/** The inspection's id if the user sees it; 404 alike for a missing one and one out of scope. */
export async function inspectionInScope(db: TenantDatabase | Tx, user: CurrentUser, id: number) {
  const row = await db.select({ id: inspections.id }).from(inspections)
    .where(and(eq(inspections.id, id), inspectionScope(user))).get();
  if (!row) throw new AppError("not_found", "Inspection not found.");
  return row.id;
}

/** Photos and the signature are added and removed by inspectors (who sign what they record) and job-admins. */
export function requireMediaEdit(ctx: Ctx): void {
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, "inspections.media");
}

/** The inspection's photos (in order) and signature, with the paths their images are served at. */
export async function mediaOf(db: TenantDatabase | Tx, id: number): Promise<InspectionMedia> {
  const [photos, signature] = await Promise.all([
    db.select().from(inspection_photos).where(eq(inspection_photos.inspection_id, id))
      .orderBy(asc(inspection_photos.position), asc(inspection_photos.id)),
    db.select().from(inspection_signatures).where(eq(inspection_signatures.inspection_id, id)).get(),
  ]);
  return {
    photos: photos.map((p) => ({
      id: p.id,
      url: fileUrl(p.file_id),
      caption: p.caption,
      width: p.width,
      height: p.height,
    })),
    signature: signature
      ? {
        url: fileUrl(signature.file_id),
        signer_name: signature.signer_name,
        signed_at: signature.signed_at,
        width: signature.width,
        height: signature.height,
      }
      : null,
  };
}

/** GET /api/pt/inspections/{id}/photos: anyone who sees the inspection sees its photos and signature. */
export async function inspectionMedia(ctx: Ctx, id: number): Promise<InspectionMedia> {
  await inspectionInScope(ctx.db, ctx.user, id);
  return await mediaOf(ctx.db, id);
}
