import { z } from "zod";
import { ListQuery, optionalText, queryEnum } from "../../lib/list_schema.ts";
import type { InventoryRowOut } from "../inventory_rows/schemas.ts";
import { id } from "../../lib/validate.ts";

export const TEMPLATE_SORTS = ["name", "business_unit", "created_at"] as const;
export const NAME_REQUIRED = "Name is required";
export const BUSINESS_UNIT_REQUIRED = "Business Unit is required";
export const UNKNOWN_BUSINESS_UNIT = "Unknown business unit";
export const INVENTORY_RULE = "Only charge-code and itemized inventory of the template's business unit";
export const LISTED_TWICE = "Listed twice";
/** The inventory types a template may hold. */
export const TEMPLATE_TYPES = ["Charge Code", "Itemized"] as const;
export const MAX_TEMPLATE_ROWS = 500;

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);
const requiredId = (message: string) => z.preprocess(blank, id(message, { coerce: true }));

/** GET /api/sales/templates: the templates of one business unit (spec: searchable only with a unit). */
export const TemplateListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  /** the business unit's id; without it the answer is empty */
  search_business_unit: z.preprocess(
    (v) => (v === "" ? undefined : v),
    id("Unknown business unit", { coerce: true }).optional(),
  ),
  sortBy: queryEnum(TEMPLATE_SORTS),
});
export type TemplateListQuery = z.infer<typeof TemplateListQuery>;

/**
 * The template form: Name and Business Unit required (spec), the inventory an ordered list of
 * distinct inventory ids. `company_id` and `created_by_id` of the spec's body are the server's to set.
 */
export const TemplateInput = z.object({
  id: z.preprocess(blank, id("Required", { coerce: true }).optional()),
  name: z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(200, "At most 200 characters"),
  business_unit_id: requiredId(BUSINESS_UNIT_REQUIRED),
  inventory_ids: z.preprocess(
    (v) => (v === undefined || v === null ? [] : v),
    z.array(id("Must be an inventory id"), {
      error: "Must be a list of inventory ids",
    }).max(MAX_TEMPLATE_ROWS, `At most ${MAX_TEMPLATE_ROWS} rows`),
  ).superRefine((ids, ctx) => {
    const seen = new Set<number>();
    ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: "custom", message: LISTED_TWICE, path: [i] });
      seen.add(id);
    });
  }),
});
export type TemplateInput = z.infer<typeof TemplateInput>;

/** PUT /api/sales/templates: the same fields, the id required. */
export const TemplateUpdateInput = TemplateInput.extend({ id: requiredId("Required") });
export type TemplateUpdateInput = z.infer<typeof TemplateUpdateInput>;

/** A template as the API answers it: its unit's name and its inventory rows, in order. */
export interface TemplateOut {
  /** the record's version: its ETag (decision 038) */
  version: number;
  id: number;
  company_id: number;
  created_by_id: number | null;
  name: string;
  business_unit_id: number;
  /** the stored order, without rows deleted since */
  inventory_ids: number[];
  created_at: string;
  updated_at: string;
  business_unit: { id: number; name: string };
  inventory: InventoryRowOut[];
}

/** GET /api/sales/templates/business-unit/{id}: the ticket form's choice list. */
export interface UnitTemplateOut {
  id: number;
  name: string;
  inventory_ids: number[];
}
