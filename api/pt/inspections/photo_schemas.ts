import { z } from "zod";

/**
 * An inspection's photos and signature: bounds and messages shared by the API and the browser (which
 * resizes photos to fit before it uploads them). Pure: no server code.
 */
export const MAX_PHOTOS = 12;
/**
 * A photo as the browser sends it after resizing: a JPEG of at most 1600 px is ~0.2-0.6 MB (decision 024).
 */
export const MAX_PHOTO_BYTES = 1.5 * 1024 * 1024;
export const MAX_PHOTO_SIDE = 1600;
export const MAX_SIGNATURE_BYTES = 200 * 1024;
export const MAX_SIGNATURE_SIDE = 2000;
export const MAX_CAPTION = 200;

/** The multipart fields: the image, and a photo's caption. */
export const IMAGE_FIELD = "file";
export const CAPTION_FIELD = "caption";

export const PHOTO_TYPE_MESSAGE = "The photo must be a JPEG or PNG image";
export const SIGNATURE_TYPE_MESSAGE = "The signature must be a PNG image";
export const TOO_MANY_PHOTOS = `An inspection holds at most ${MAX_PHOTOS} photos: remove one first.`;
export const CAPTION_LINE_MESSAGE = "The caption must be one line";

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
export const PHOTO_TOO_LARGE = `The photo is larger than ${mb(MAX_PHOTO_BYTES)}.`;
export const SIGNATURE_TOO_LARGE = `The signature is larger than ${MAX_SIGNATURE_BYTES / 1024} KB.`;

/** A photo's caption: optional, one line of at most MAX_CAPTION characters. */
export const PhotoCaption = z.preprocess(
  (v) => (v === undefined || v === null ? "" : v),
  z.string({ error: "Must be text" }).trim()
    .max(MAX_CAPTION, `At most ${MAX_CAPTION} characters`)
    .regex(/^[^\r\n\t]*$/, CAPTION_LINE_MESSAGE),
);

/** A photo upload's form fields beside the image. */
export const PhotoFields = z.object({ caption: PhotoCaption });

export interface PhotoOut {
  id: number;
  /** where the image is served (GET /api/files/{id}) */
  url: string;
  caption: string;
  width: number;
  height: number;
}

export interface SignatureOut {
  url: string;
  signer_name: string;
  /** UTC instant */
  signed_at: string;
  width: number;
  height: number;
}

/** GET /api/pt/inspections/{id}/photos, and what every photo or signature change answers. */
export interface InspectionMedia {
  photos: PhotoOut[];
  signature: SignatureOut | null;
  message?: string;
}
