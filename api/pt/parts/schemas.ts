import { z } from "zod";
import { customObject, id } from "../../lib/validate.ts";

/** The part form has no required fields (spec); text is trimmed and capped, null means cleared. */
const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters`).nullish().transform((v) => v === null ? "" : v);

export const PartInput = z.object({
  id: id("Unknown part", { coerce: true }).optional(),
  /** Absent: "" on a create, left as stored on an update (as are the other fields). */
  name: text(200),
  description: text(1000),
  manufacturer: text(200),
  custom: customObject().optional(),
});
export type PartInput = z.infer<typeof PartInput>;

/** PATCH /api/pt/parts: the same fields, the id required. */
export const PartUpdateInput = PartInput.extend({
  id: id("Required", { coerce: true }),
});
export type PartUpdateInput = z.infer<typeof PartUpdateInput>;

/** A part as the API answers it. */
export interface PartOut {
  id: number;
  name: string;
  description: string;
  manufacturer: string;
  inspection_company_id: number;
  user_id: number | null;
  custom: Record<string, unknown>;
  /** Decision 038: the list rows carry it, the edit form sends it back as If-Match. */
  version: number;
}

/** A row of the part autocomplete (inspection and batch forms). */
export interface PartHit {
  id: number;
  name: string;
  description: string;
}
