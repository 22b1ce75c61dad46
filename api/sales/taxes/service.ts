import { and, type AnyColumn, asc, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, type Tax, taxes } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import {
  likeContains,
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
  queryEnum,
} from "../../lib/list_query.ts";
import { bumpVersion, isForeignKeyError, nowStamp } from "../../lib/db_helpers.ts";
import { requireMatch } from "../../lib/preconditions.ts";
import { parse } from "../../lib/validate.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { sumRates, TaxInput, type TaxOut, TaxUpdateInput } from "./schemas.ts";

export const TaxListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  search_state: optionalText,
  search_county: optionalText,
  search_city: optionalText,
  sortBy: queryEnum(["name", "state", "county", "city"]),
});
export type TaxListQuery = z.infer<typeof TaxListQuery>;

const SORT = {
  name: sql`${taxes.name} collate nocase`,
  state: sql`${taxes.state} collate nocase`,
  county: sql`${taxes.county} collate nocase`,
  city: sql`${taxes.city} collate nocase`,
};

const like = (col: AnyColumn, text: string) => sql`${col} like ${likeContains(text)} escape '\\'`;

function listWhere(ctx: Ctx, q: TaxListQuery): SQL | undefined {
  return and(
    eq(taxes.company_id, ctx.user.company_id),
    q.search_name
      ? or(
        like(taxes.name, q.search_name),
        like(taxes.state, q.search_name),
        like(taxes.county, q.search_name),
        like(taxes.city, q.search_name),
      )
      : undefined,
    q.search_state ? like(taxes.state, q.search_state) : undefined,
    q.search_county ? like(taxes.county, q.search_county) : undefined,
    q.search_city ? like(taxes.city, q.search_city) : undefined,
  );
}

export function presentTax(t: Tax): TaxOut {
  return {
    id: t.id,
    version: t.version,
    company_id: t.company_id,
    created_by_id: t.created_by_id,
    name: t.name,
    state: t.state,
    county: t.county,
    city: t.city,
    state_rate: t.state_rate,
    county_rate: t.county_rate,
    city_rate: t.city_rate,
    rate: t.rate,
    notes: t.notes,
  };
}

/** GET /api/sales/taxes: the company's taxes, by name ascending unless asked otherwise. */
export async function listTaxes(ctx: Ctx, q: TaxListQuery): Promise<ListResult<TaxOut>> {
  requireAbility(ctx.user, "sales.read");
  const where = listWhere(ctx, q);
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(taxes).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), dir(taxes.id)).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(taxes).where(where)),
  ]);
  return { results: rows.map(presentTax), total };
}

const FIELDS = [
  "name",
  "state",
  "county",
  "city",
  "state_rate",
  "county_rate",
  "city_rate",
  "notes",
] as const;
type TaxFields = Pick<Tax, (typeof FIELDS)[number]>;

/** The stored fields an input sets: absent fields are left alone. */
function fieldsOf(input: TaxInput): Partial<TaxFields> {
  return Object.fromEntries(FIELDS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
}

/**
 * The combined rate to store: the one given, else the sum of the three rates as they will stand.
 * An update that touches neither the rate nor any of the three keeps the stored rate.
 */
function rateFor(
  input: TaxInput,
  merged: Pick<Tax, "state_rate" | "county_rate" | "city_rate">,
  stored?: Tax,
) {
  if (typeof input.rate === "number") return input.rate;
  const touched = input.rate === null || input.state_rate !== undefined || input.county_rate !== undefined ||
    input.city_rate !== undefined;
  if (stored && !touched) return stored.rate;
  return sumRates(merged);
}

/**
 * POST /api/sales/taxes (creates; with an id updates) and PUT /api/sales/taxes (updates): sales-admin.
 * No field is required; the rates are percents from 0 to 100.
 */
export async function saveTax(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean } = {},
): Promise<TaxOut & { message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const input = parse(opts.update ? TaxUpdateInput : TaxInput, body);
  const values = fieldsOf(input);
  const saved = await ctx.tdb.write(async (tx) => {
    if (input.id === undefined) {
      return (await tx.insert(taxes).values({
        ...values,
        rate: rateFor(input, { state_rate: null, county_rate: null, city_rate: null, ...values }),
        company_id: ctx.user.company_id,
        created_by_id: ctx.user.id,
      }).returning())[0];
    }
    const mine = and(eq(taxes.id, input.id), eq(taxes.company_id, ctx.user.company_id));
    const stored = await tx.select().from(taxes).where(mine).get();
    if (!stored) throw new AppError("not_found", "Tax not found.");
    await requireMatch(ctx, stored.version, () => Promise.resolve(presentTax(stored)));
    const [row] = await tx.update(taxes)
      .set({
        ...values,
        rate: rateFor(input, { ...stored, ...values }, stored),
        updated_at: nowStamp(),
        version: bumpVersion(taxes.version),
      })
      .where(mine).returning();
    return row;
  });
  return { ...presentTax(saved), message: input.id === undefined ? "Tax created" : "Tax updated" };
}

/** DELETE /api/sales/taxes/{id}: sales-admin; refused while a company (or a later record) uses the tax. */
export async function deleteTax(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const mine = and(eq(taxes.id, id), eq(taxes.company_id, ctx.user.company_id));
    const stored = await tx.select().from(taxes).where(mine).get();
    if (!stored) throw new AppError("not_found", "Tax not found.");
    await requireMatch(ctx, stored.version, () => Promise.resolve(presentTax(stored)));
    const used = await tx.select({ id: companies.id }).from(companies).where(eq(companies.tax_id, id)).limit(
      1,
    ).get();
    if (used) throw new AppError("conflict", "This tax is used by a company.");
    try {
      await tx.delete(taxes).where(mine);
    } catch (e) {
      if (isForeignKeyError(e)) throw new AppError("conflict", "This tax is still used by other records.");
      throw e;
    }
  });
  return { message: "Tax deleted" };
}
