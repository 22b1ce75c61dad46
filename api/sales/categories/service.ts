import { and, asc, count, desc, eq, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import {
  categories,
  type Category,
  inventory,
  items,
  sub_categories,
  templates,
} from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
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
import {
  ALL_SEARCH,
  CategoryInput,
  CategoryModelSchema,
  type CategoryOut,
  CategoryUpdateInput,
} from "./schemas.ts";
import { changeLocations, cleanLocations } from "./locations.ts";

export const CategoryListQuery = ListQuery.extend({
  model: CategoryModelSchema,
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  sortBy: queryEnum(["name", "notes"]),
});
export type CategoryListQuery = z.infer<typeof CategoryListQuery>;

const SORT = {
  name: sql`${categories.name} collate nocase`,
  notes: sql`${categories.notes} collate nocase`,
};

const UNIT = "Business Unit";

export function presentCategory(c: Category): CategoryOut {
  const custom = c.model === UNIT ? { ...c.custom, locations: c.custom.locations ?? [] } : c.custom;
  return {
    id: c.id,
    version: c.version,
    company_id: c.company_id,
    created_by_id: c.created_by_id,
    model: c.model,
    name: c.name,
    notes: c.notes,
    custom,
  };
}

/**
 * GET /api/sales/categories?model=: one model's categories by name. The template form's search '!ALL'
 * means every business unit on one page.
 */
export async function listCategories(ctx: Ctx, q: CategoryListQuery): Promise<ListResult<CategoryOut>> {
  requireAbility(ctx.user, "sales.read");
  const all = q.search_name === ALL_SEARCH;
  const search = all ? undefined : q.search_name;
  const where = and(
    eq(categories.company_id, ctx.user.company_id),
    eq(categories.model, q.model),
    search ? sql`${categories.name} like ${likeContains(search)} escape '\\'` : undefined,
  );
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(all ? { page: 1, rowsPerPage: -1 } : q);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(categories).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), dir(categories.id)).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(categories).where(where)),
  ]);
  return { results: rows.map(presentCategory), total };
}

/** Names are unique within a model, whatever their case (409). */
async function requireFreeName(tx: Tx, ctx: Ctx, model: string, name: string, id?: number) {
  const taken = await tx.select({ id: categories.id }).from(categories).where(and(
    eq(categories.company_id, ctx.user.company_id),
    eq(categories.model, model as Category["model"]),
    sql`${categories.name} = ${name} collate nocase`,
    id === undefined ? undefined : ne(categories.id, id),
  )).limit(1).get();
  const article = /^[AEIOU]/.test(model) ? "An" : "A";
  if (taken) throw new AppError("conflict", `${article} ${model} with this name already exists.`);
}

type SaveInput = CategoryInput | CategoryUpdateInput;
type Saved = CategoryOut & { message: string };

/**
 * POST /api/sales/categories (creates; with an id updates) and PUT (updates): sales-admin. A category
 * keeps its model. A business unit's `custom.locations` are checked (trimmed, distinct, not 'Base');
 * a location dropped while it holds stock is refused, a renamed one takes its stock along.
 */
export async function saveCategory(ctx: Ctx, body: unknown, opts: { update?: boolean } = {}): Promise<Saved> {
  requireAbility(ctx.user, "sales.admin");
  const input: SaveInput = parse(opts.update ? CategoryUpdateInput : CategoryInput, body);
  const saved = await ctx.tdb.write((tx) =>
    input.id === undefined
      ? createCategory(tx, ctx, input as CategoryInput)
      : updateCategory(tx, ctx, input, input.id)
  );
  return {
    ...presentCategory(saved),
    message: `${saved.model} ${input.id === undefined ? "created" : "updated"}`,
  };
}

/** `custom` without its locations, and a business unit's locations (cleaned) when given. */
function splitCustom(input: SaveInput, isUnit: boolean) {
  const { locations, ...rest } = input.custom ?? {};
  return { rest, locations: isUnit && locations ? cleanLocations(locations) : undefined };
}

async function createCategory(tx: Tx, ctx: Ctx, input: CategoryInput): Promise<Category> {
  await requireFreeName(tx, ctx, input.model, input.name);
  const { rest, locations } = splitCustom(input, input.model === UNIT);
  const [row] = await tx.insert(categories).values({
    company_id: ctx.user.company_id,
    created_by_id: ctx.user.id,
    model: input.model,
    name: input.name,
    notes: input.notes ?? "",
    custom: input.model === UNIT ? { ...rest, locations: locations ?? [] } : rest,
  }).returning();
  return row;
}

async function updateCategory(tx: Tx, ctx: Ctx, input: SaveInput, id: number): Promise<Category> {
  const mine = and(eq(categories.id, id), eq(categories.company_id, ctx.user.company_id));
  const stored = await tx.select().from(categories).where(mine).get();
  if (!stored) throw new AppError("not_found", "Category not found.");
  await requireMatch(ctx, stored.version, () => Promise.resolve(presentCategory(stored)));
  if (input.model !== undefined && stored.model !== input.model) {
    const message = "A category cannot change its model.";
    throw new AppError("invalid", message, [{ path: "model", message }]);
  }
  await requireFreeName(tx, ctx, stored.model, input.name, id);
  const { rest, locations } = splitCustom(input, stored.model === UNIT);
  const custom = { ...stored.custom, ...rest };
  if (stored.model === UNIT) {
    const before = stored.custom.locations ?? [];
    custom.locations = locations ?? before;
    await changeLocations(tx, ctx.user, id, before, custom.locations, input.location_renames ?? []);
  } else delete custom.locations;
  const [row] = await tx.update(categories).set({
    name: input.name,
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
    custom,
    updated_at: nowStamp(),
    version: bumpVersion(categories.version),
  }).where(mine).returning();
  return row;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function sentence(parts: string[]): string {
  return parts.length < 2
    ? parts.join("")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** What still refers to a category, as "2 items and 1 template" (empty when nothing does). */
async function usesOf(tx: Tx, id: number): Promise<string> {
  const n = async (q: Promise<{ n: number }[]>) => (await q)[0].n;
  const [item, stock, sub, template] = await Promise.all([
    n(tx.select({ n: count() }).from(items).where(eq(items.category_id, id))),
    n(
      tx.select({ n: count() }).from(inventory).where(
        or(eq(inventory.category_id, id), eq(inventory.business_unit_id, id)),
      ),
    ),
    n(tx.select({ n: count() }).from(sub_categories).where(eq(sub_categories.category_id, id))),
    n(tx.select({ n: count() }).from(templates).where(eq(templates.business_unit_id, id))),
  ]);
  const parts: string[] = [];
  if (item) parts.push(plural(item, "item", "items"));
  if (stock) parts.push(plural(stock, "inventory row", "inventory rows"));
  if (sub) parts.push(plural(sub, "sub product line", "sub product lines"));
  if (template) parts.push(plural(template, "template", "templates"));
  return sentence(parts);
}

/** DELETE /api/sales/categories/{id}: sales-admin; refused (409) while anything still refers to it. */
export async function deleteCategory(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const model = await ctx.tdb.write(async (tx) => {
    const mine = and(eq(categories.id, id), eq(categories.company_id, ctx.user.company_id));
    const current = await tx.select().from(categories).where(mine).get();
    if (!current) throw new AppError("not_found", "Category not found.");
    await requireMatch(ctx, current.version, () => Promise.resolve(presentCategory(current)));
    const what = current.model.toLowerCase();
    const uses = await usesOf(tx, id);
    if (uses) throw new AppError("conflict", `This ${what} is used by ${uses}.`);
    try {
      await tx.delete(categories).where(mine);
    } catch (e) {
      if (isForeignKeyError(e)) {
        throw new AppError("conflict", `This ${what} is still used by other records.`);
      }
      throw e;
    }
    return current.model;
  });
  return { message: `${model} deleted` };
}
