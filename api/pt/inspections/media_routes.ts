import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { id, IdParam } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { uploadLimitOf } from "../../files/routes.ts";
import { addPhoto, inspectionMedia, removePhoto, removeSignature, saveSignature } from "./service.ts";
import {
  IMAGE_FIELD,
  MAX_PHOTO_BYTES,
  MAX_SIGNATURE_BYTES,
  PHOTO_TOO_LARGE,
  SIGNATURE_TOO_LARGE,
} from "./photo_schemas.ts";

/** Room for the caption and the multipart framing around the image. */
const FIELDS_ALLOWANCE = 16 * 1024;
const photoLimit = uploadLimitOf(
  () => MAX_PHOTO_BYTES + FIELDS_ALLOWANCE,
  () => new AppError("too_large", PHOTO_TOO_LARGE),
);
const signatureLimit = uploadLimitOf(
  () => MAX_SIGNATURE_BYTES + FIELDS_ALLOWANCE,
  () => new AppError("too_large", SIGNATURE_TOO_LARGE),
);

const PhotoParam = z.object({
  id: id(undefined, { coerce: true }),
  photoId: id(undefined, { coerce: true }),
});

/** The multipart form, read when the service asks for it (after its permission check). */
const formOf = (c: Context<AppEnv>) => async () => {
  try {
    return await c.req.parseBody() as Record<string, unknown>;
  } catch (e) {
    throw e instanceof AppError ? e : new AppError("bad_request", "Malformed request body.");
  }
};

/** An inspection's photos and signature (issue 13): images in `files`, served by GET /api/files/{id}. */
export const inspectionMediaRoutes = new Hono<AppEnv>()
  .get("/pt/inspections/:id/photos", valid("param", IdParam), async (c) => {
    return c.json(await inspectionMedia(ctxOf(c), c.req.valid("param").id));
  })
  .post("/pt/inspections/:id/photos", photoLimit, valid("param", IdParam), async (c) => {
    return c.json(await addPhoto(ctxOf(c), c.req.valid("param").id, formOf(c)));
  })
  .delete("/pt/inspections/:id/photos/:photoId", valid("param", PhotoParam), async (c) => {
    const { id, photoId } = c.req.valid("param");
    return c.json(await removePhoto(ctxOf(c), id, photoId));
  })
  .put("/pt/inspections/:id/signature", signatureLimit, valid("param", IdParam), async (c) => {
    return c.json(
      await saveSignature(ctxOf(c), c.req.valid("param").id, async () => (await formOf(c)())[IMAGE_FIELD]),
    );
  })
  .delete("/pt/inspections/:id/signature", valid("param", IdParam), async (c) => {
    return c.json(await removeSignature(ctxOf(c), c.req.valid("param").id));
  });
