import { z } from "zod";
import { COMPANY_TYPES } from "../../../lib/enums.ts";
import { id, MAX_CUSTOM_CHARS } from "../../lib/validate.ts";

export { COMPANY_TYPES };

/** Settings arrive as an object or as the JSON text of the form's editor; either must be an object. */
export const SettingsInput = z.union([z.string(), z.record(z.string(), z.unknown())]).transform((v, ctx) => {
  if (typeof v !== "string") return v;
  try {
    const parsed = JSON.parse(v);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch { /* reported below */ }
  ctx.addIssue({ code: "custom", message: "Settings must be valid JSON (an object)" });
  return z.NEVER;
});

const line = z.string().trim().max(200).optional();

export const CompanyInput = z.object({
  id: id("Unknown company", { coerce: true }).optional(),
  name: z.string({ error: "Required" }).trim().min(1, "Required").max(200),
  company_type: z.enum(COMPANY_TYPES, { error: "Required" }),
  tax_id: id("Unknown tax", { coerce: true }).nullable().optional(),
  /** Absent on an update: left as stored. */
  custom: z.object({ address_line_1: line, address_line_2: line, address_line_3: line }).loose()
    .refine((v) => JSON.stringify(v).length <= MAX_CUSTOM_CHARS, `At most ${MAX_CUSTOM_CHARS} characters`)
    .optional(),
  /** Absent on an update: left as stored. Only a superuser may change it. */
  settings: SettingsInput.optional(),
});
export type CompanyInput = z.infer<typeof CompanyInput>;

/** PATCH /api/companies: the same fields, the id required. */
export const CompanyUpdateInput = CompanyInput.extend({
  id: id("Required", { coerce: true }),
});
export type CompanyUpdateInput = z.infer<typeof CompanyUpdateInput>;
