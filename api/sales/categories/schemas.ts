import { z } from "zod";
import { CATEGORY_MODELS, type CategoryModel } from "../../../lib/enums.ts";
import type { FieldError } from "../../../lib/errors.ts";
import { id, MAX_CUSTOM_CHARS } from "../../lib/validate.ts";

export { CATEGORY_MODELS, type CategoryModel };

const MODEL_MESSAGE = `Must be one of: ${CATEGORY_MODELS.join(", ")}`;

/** The `model` of a category list or save: one of CATEGORY_MODELS. */
export const CategoryModelSchema = z.enum(CATEGORY_MODELS, {
  error: (i) => i.input === undefined ? "Required" : MODEL_MESSAGE,
});

const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters`).nullish().transform((v) => v === null ? "" : v);

/** A rename of a business unit's location: the stock held there moves to the new name. */
export const LocationRename = z.object({
  from: z.string().trim().min(1).max(100),
  to: z.string().trim().min(1).max(100),
});
export type LocationRename = z.infer<typeof LocationRename>;

/** Category form: Name required, Notes optional (spec); business units add `custom.locations`. */
export const CategoryInput = z.object({
  id: id("Unknown category", { coerce: true }).optional(),
  model: CategoryModelSchema,
  name: z.string({ error: "Required" }).trim().min(1, "Required").max(200, "At most 200 characters"),
  notes: text(1000),
  custom: z.object({
    locations: z.array(z.string({ error: "Must be text" }).max(100, "At most 100 characters"))
      .max(200, "At most 200 locations").optional(),
  }).catchall(z.unknown())
    .refine((v) => JSON.stringify(v).length <= MAX_CUSTOM_CHARS, `At most ${MAX_CUSTOM_CHARS} characters`)
    .optional(),
  /** Renamed locations (business units): their stock follows the new name. */
  location_renames: z.array(LocationRename).max(200).optional(),
});
export type CategoryInput = z.infer<typeof CategoryInput>;

/** PUT /api/sales/categories: the same fields, the id required; the model, if sent, must be the stored one. */
export const CategoryUpdateInput = CategoryInput.extend({
  id: id("Required", { coerce: true }),
  model: CategoryModelSchema.optional(),
});
export type CategoryUpdateInput = z.infer<typeof CategoryUpdateInput>;

export const BASE_LOCATION = "Base";
export const BASE_MESSAGE = "'Base' is the default location";

/**
 * What is wrong with a business unit's location list, with the paths of the API's 422
 * (`custom.locations.<i>`): each name trimmed, non-empty, not 'Base' and listed once (in any case).
 */
export function locationProblems(names: readonly string[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  names.forEach((raw, i) => {
    const name = raw.trim();
    const key = name.toLowerCase();
    const path = `custom.locations.${i}`;
    if (!name) out.push({ path, message: "Required" });
    else if (key === BASE_LOCATION.toLowerCase()) out.push({ path, message: BASE_MESSAGE });
    else if (seen.has(key)) out.push({ path, message: "Already listed" });
    seen.add(key);
  });
  return out;
}

/** A category as the API answers it; business units always carry `custom.locations`. */
export interface CategoryOut {
  /** the record's version: its ETag (decision 038) */
  version: number;
  id: number;
  company_id: number;
  created_by_id: number | null;
  model: CategoryModel;
  name: string;
  notes: string;
  custom: { locations?: string[] } & Record<string, unknown>;
}

/** The template form's business unit search: every unit, unpaged (spec). */
export const ALL_SEARCH = "!ALL";
