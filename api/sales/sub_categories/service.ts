import type { Tx } from "../../../db/client.ts";
import { and, asc, count, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { categories, sub_categories, type SubCategory } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
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
import { SubCategoryInput, type SubCategoryOut, SubCategoryUpdateInput } from "./schemas.ts";

export const SubCategoryListQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  /** the product line's id */
  search_parent: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().positive().optional(),
  ),
  model: optionalText,
  sortBy: queryEnum(["name", "category", "notes"]),
});
export type SubCategoryListQuery = z.infer<typeof SubCategoryListQuery>;

const SORT = {
  name: sql`${sub_categories.name} collate nocase`,
  category: sql`${categories.name} collate nocase`,
  notes: sql`${sub_categories.notes} collate nocase`,
};

const PRODUCT_LINE = "Product Line";

function present(s: SubCategory, category: { id: number; name: string }): SubCategoryOut {
  return {
    id: s.id,
    version: s.version,
    company_id: s.company_id,
    created_by_id: s.created_by_id,
    category_id: s.category_id,
    model: s.model,
    name: s.name,
    notes: s.notes,
    category,
  };
}

/** A sub product line as it is now, with its product line: the body of a 412. */
async function currentSub(tx: Tx, s: SubCategory) {
  const parent = await tx.select({ id: categories.id, name: categories.name }).from(categories)
    .where(eq(categories.id, s.category_id)).get();
  return present(s, parent ?? { id: s.category_id, name: "" });
}

function listWhere(ctx: Ctx, q: SubCategoryListQuery): SQL | undefined {
  return and(
    eq(sub_categories.company_id, ctx.user.company_id),
    q.search_name ? sql`${sub_categories.name} like ${likeContains(q.search_name)} escape '\\'` : undefined,
    q.search_parent ? eq(sub_categories.category_id, q.search_parent) : undefined,
    q.model ? eq(sub_categories.model, q.model) : undefined,
  );
}

/** GET /api/sales/sub_categories: sub product lines with their product line, by name. */
export async function listSubCategories(
  ctx: Ctx,
  q: SubCategoryListQuery,
): Promise<ListResult<SubCategoryOut>> {
  requireAbility(ctx.user, "sales.read");
  const where = listWhere(ctx, q);
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    ctx.db.select({ sub: sub_categories, category: { id: categories.id, name: categories.name } })
      .from(sub_categories).innerJoin(categories, eq(categories.id, sub_categories.category_id)).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), asc(SORT.name), asc(sub_categories.id)).limit(limit).offset(
        offset,
      ),
    listTotal(ctx, ctx.db.select({ total: count() }).from(sub_categories).where(where)),
  ]);
  return { results: rows.map((r) => present(r.sub, r.category)), total };
}

/**
 * POST /api/sales/sub_categories (creates; with an id updates) and PUT (updates): sales-admin. The
 * category must be one of the company's product lines; names are unique within a product line.
 */
export async function saveSubCategory(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean } = {},
): Promise<SubCategoryOut & { message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const input = parse(opts.update ? SubCategoryUpdateInput : SubCategoryInput, body);
  const saved = await ctx.tdb.write(async (tx) => {
    const parent = await tx.select({ id: categories.id, name: categories.name }).from(categories).where(and(
      eq(categories.id, input.category_id),
      eq(categories.company_id, ctx.user.company_id),
      eq(categories.model, PRODUCT_LINE),
    )).get();
    if (!parent) throw invalid("category_id", "Category must be a Product Line");
    const taken = await tx.select({ id: sub_categories.id }).from(sub_categories).where(and(
      eq(sub_categories.category_id, parent.id),
      sql`${sub_categories.name} = ${input.name} collate nocase`,
      input.id === undefined ? undefined : ne(sub_categories.id, input.id),
    )).limit(1).get();
    if (taken) {
      throw new AppError("conflict", `A Sub Product Line with this name already exists in ${parent.name}.`);
    }
    const values = {
      category_id: parent.id,
      name: input.name,
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
    };
    if (input.id === undefined) {
      const [row] = await tx.insert(sub_categories)
        .values({ ...values, company_id: ctx.user.company_id, created_by_id: ctx.user.id }).returning();
      return present(row, parent);
    }
    const mine = and(eq(sub_categories.id, input.id), eq(sub_categories.company_id, ctx.user.company_id));
    const stored = await tx.select().from(sub_categories).where(mine).get();
    if (!stored) throw new AppError("not_found", "Sub Product Line not found.");
    await requireMatch(ctx, stored.version, () => currentSub(tx, stored));
    const [row] = await tx.update(sub_categories)
      .set({ ...values, updated_at: nowStamp(), version: bumpVersion(sub_categories.version) })
      .where(mine).returning();
    return present(row, parent);
  });
  return {
    ...saved,
    message: input.id === undefined ? "Sub Product Line created" : "Sub Product Line updated",
  };
}

/** DELETE /api/sales/sub_categories/{id}: sales-admin; refused while a later record still uses it. */
export async function deleteSubCategory(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  await ctx.tdb.write(async (tx) => {
    const mine = and(eq(sub_categories.id, id), eq(sub_categories.company_id, ctx.user.company_id));
    const stored = await tx.select().from(sub_categories).where(mine).get();
    if (!stored) throw new AppError("not_found", "Sub Product Line not found.");
    await requireMatch(ctx, stored.version, () => currentSub(tx, stored));
    try {
      await tx.delete(sub_categories).where(mine);
    } catch (e) {
      if (isForeignKeyError(e)) {
        throw new AppError("conflict", "This sub product line is still used by other records.");
      }
      throw e;
    }
  });
  return { message: "Sub Product Line deleted" };
}
