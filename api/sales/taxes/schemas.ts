import { z } from "zod";
import { id, percent as boundedPercent } from "../../lib/validate.ts";

/** Text fields are trimmed and capped; null clears a field, absent leaves it as stored. */
const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters`).nullish().transform((v) => v === null ? "" : v);

/** A percent from the form: a number or numeric text; "" and null mean no rate. */
const percent = z.preprocess(
  (v) => typeof v === "string" ? (v.trim() === "" ? null : Number(v.trim())) : v,
  boundedPercent().nullish(),
);

/** The tax form has no required fields (spec); rates are percents. */
export const TaxInput = z.object({
  id: id("Unknown tax", { coerce: true }).optional(),
  name: text(200),
  state: text(100),
  county: text(100),
  city: text(100),
  state_rate: percent,
  county_rate: percent,
  city_rate: percent,
  /** The combined rate; when not given, state + county + city. */
  rate: percent,
  notes: text(1000),
});
export type TaxInput = z.infer<typeof TaxInput>;

/** PUT /api/sales/taxes: the same fields, the id required. */
export const TaxUpdateInput = TaxInput.extend({
  id: id("Required", { coerce: true }),
});
export type TaxUpdateInput = z.infer<typeof TaxUpdateInput>;

/** A tax as the API answers it. */
export interface TaxOut {
  /** the record's version: its ETag (decision 038) */
  version: number;
  id: number;
  company_id: number;
  created_by_id: number | null;
  name: string;
  state: string;
  county: string;
  city: string;
  state_rate: number | null;
  county_rate: number | null;
  city_rate: number | null;
  rate: number | null;
  notes: string;
}

/** The sum of the three rates (null when none is set), without float noise (6.25 + 0.1 + 0.2). */
export function sumRates(
  r: { state_rate?: number | null; county_rate?: number | null; city_rate?: number | null },
) {
  const parts = [r.state_rate, r.county_rate, r.city_rate].filter((n): n is number => typeof n === "number");
  if (parts.length === 0) return null;
  return Math.round(parts.reduce((a, b) => a + b, 0) * 1e6) / 1e6;
}
