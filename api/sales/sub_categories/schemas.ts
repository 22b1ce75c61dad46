import { z } from "zod";
import { id } from "../../lib/validate.ts";

const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters`).nullish().transform((v) => v === null ? "" : v);

export const CATEGORY_REQUIRED = "Category is required";

/** Sub category form: Category (a product line) and Name required, Notes optional (spec). */
export const SubCategoryInput = z.object({
  id: id("Unknown sub category", { coerce: true }).optional(),
  category_id: id(CATEGORY_REQUIRED, { coerce: true }),
  name: z.string({ error: "Required" }).trim().min(1, "Required").max(200, "At most 200 characters"),
  notes: text(1000),
});
export type SubCategoryInput = z.infer<typeof SubCategoryInput>;

/** PUT /api/sales/sub_categories: the same fields, the id required. */
export const SubCategoryUpdateInput = SubCategoryInput.extend({
  id: id("Required", { coerce: true }),
});
export type SubCategoryUpdateInput = z.infer<typeof SubCategoryUpdateInput>;

/** A sub product line as the API answers it, with its product line. */
export interface SubCategoryOut {
  /** the record's version: its ETag (decision 038) */
  version: number;
  id: number;
  company_id: number;
  created_by_id: number | null;
  category_id: number;
  model: string;
  name: string;
  notes: string;
  category: { id: number; name: string };
}
