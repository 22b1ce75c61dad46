import { timeZoneOf } from "../../../lib/format.ts";
import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { inspections, type Part, parts } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import {
  everyRow,
  likeContains,
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
  queryEnum,
} from "../../lib/list_query.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { xlsxResponse } from "../../lib/xlsx.ts";
import { requireMatch } from "../../lib/preconditions.ts";
import type { PartHit, PartInput, PartOut } from "./schemas.ts";

export const PartListQuery = ListQuery.extend({
  search_name: optionalText,
  sortBy: queryEnum(["name", "description", "manufacturer"]),
});
export type PartListQuery = z.infer<typeof PartListQuery>;

/** The part autocomplete of the inspection and batch forms: 20 rows by name unless asked otherwise. */
export const PartSearchQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  sortBy: queryEnum(["name"]),
});
export type PartSearchQuery = z.infer<typeof PartSearchQuery>;

const SORT = {
  name: sql`${parts.name} collate nocase`,
  description: sql`${parts.description} collate nocase`,
  manufacturer: sql`${parts.manufacturer} collate nocase`,
};

/**
 * The parts catalogue belongs to an inspection company: its staff see their own company's parts;
 * customer and operator users have no parts page (the spec's menu shows it to inspection companies only).
 */
function partScope(ctx: Ctx): SQL {
  requireAbility(ctx.user, "parts.view");
  return eq(parts.inspection_company_id, ctx.user.company_id);
}

function listWhere(ctx: Ctx, search: string | undefined): SQL | undefined {
  return and(
    partScope(ctx),
    search ? sql`${parts.name} like ${likeContains(search)} escape '\\'` : undefined,
  );
}

export function presentPart(p: Part): PartOut {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    manufacturer: p.manufacturer,
    inspection_company_id: p.inspection_company_id,
    user_id: p.user_id,
    custom: p.custom,
    version: p.version,
  };
}

/** GET /api/pt/parts: the parts page, by name ascending unless asked otherwise. */
export async function listParts(ctx: Ctx, q: PartListQuery): Promise<ListResult<PartOut>> {
  const where = listWhere(ctx, q.search_name);
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(parts).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), dir(parts.id)).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(parts).where(where)),
  ]);
  return { results: rows.map(presentPart), total };
}

/** GET /api/parts?search_name=: the autocomplete, same scope as the list. */
export async function searchParts(ctx: Ctx, q: PartSearchQuery): Promise<ListResult<PartHit>> {
  const where = listWhere(ctx, q.search_name);
  const { limit, offset } = pageWindow(q);
  const [results, total] = await Promise.all([
    ctx.db.select({ id: parts.id, name: parts.name, description: parts.description }).from(parts)
      .where(where).orderBy((q.descending ? desc : asc)(SORT.name), parts.id).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(parts).where(where)),
  ]);
  return { results, total };
}

export const PART_COLUMNS = [
  { header: "Part Name", key: "name", width: 30 },
  { header: "Part Desc.", key: "description", width: 50 },
  { header: "Manufacturer", key: "manufacturer", width: 24 },
];

/** GET /api/pt/parts/download: the list's filters, every row, as Parts-YYYY-MM-DD.xlsx. */
export async function downloadParts(ctx: Ctx, q: PartListQuery, today = new Date()): Promise<Response> {
  return xlsxResponse(
    "Parts",
    PART_COLUMNS,
    await everyRow((page, rowsPerPage) => listParts(ctx, { ...q, page, rowsPerPage }), (p) => ({ ...p })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}

/**
 * POST /api/pt/parts (creates, or updates with an id) and PATCH /api/pt/parts (updates). Any of the
 * inspection company's staff may add a part (the spec shows New Part to everyone); changing one is
 * part-admin work. A new part belongs to the caller's company and records the caller as its author.
 */
export async function savePart(ctx: Ctx, input: PartInput): Promise<PartOut & { message: string }> {
  requireAbility(ctx.user, "pt.write");
  if (input.id !== undefined) requireAbility(ctx.user, "parts.edit");
  const saved = await ctx.tdb.write(async (tx) => {
    const values = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.manufacturer !== undefined ? { manufacturer: input.manufacturer } : {}),
      ...(input.custom !== undefined ? { custom: input.custom } : {}),
    };
    if (input.id === undefined) {
      return (await tx.insert(parts).values({
        ...values,
        inspection_company_id: ctx.user.company_id,
        user_id: ctx.user.id,
      }).returning())[0];
    }
    const mine = and(eq(parts.id, input.id), eq(parts.inspection_company_id, ctx.user.company_id));
    const current = await tx.select().from(parts).where(mine).get();
    if (!current) throw new AppError("not_found", "Part not found.");
    await requireMatch(ctx, current.version, () => Promise.resolve(presentPart(current)));
    await tx.update(parts).set({ ...values, updated_at: nowStamp() }).where(mine);
    // Read again rather than RETURNING: the version trigger runs after RETURNING has read the row.
    return (await tx.select().from(parts).where(mine).get())!;
  });
  return { ...presentPart(saved), message: input.id === undefined ? "Part created" : "Part updated" };
}

/**
 * DELETE /api/pt/parts/{id}: part-admin only. The database would keep the inspections and clear
 * their part; a part still in use is refused instead, so no inspection silently loses its part.
 */
export async function deletePart(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "pt.write");
  requireAbility(ctx.user, "parts.edit");
  await ctx.tdb.write(async (tx) => {
    const mine = and(eq(parts.id, id), eq(parts.inspection_company_id, ctx.user.company_id));
    const current = await tx.select().from(parts).where(mine).get();
    if (!current) throw new AppError("not_found", "Part not found.");
    await requireMatch(ctx, current.version, () => Promise.resolve(presentPart(current)));
    const used = await tx.select({ id: inspections.id }).from(inspections)
      .where(eq(inspections.part_id, id)).limit(1).get();
    if (used) throw new AppError("conflict", "This part is used by inspections.");
    await tx.delete(parts).where(mine);
  });
  return { message: "Part deleted" };
}
