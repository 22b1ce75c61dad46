import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { categories, inventory, items, type Template, templates } from "../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../lib/context.ts";
import { AppError, type FieldError, invalid } from "../../../lib/errors.ts";
import { likeContains, type ListResult, listTotal, pageWindow } from "../../lib/list_query.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireMatch } from "../../lib/preconditions.ts";
import { parse } from "../../lib/validate.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { inventoryRowsByIds } from "../inventory_rows/service.ts";
import {
  INVENTORY_RULE,
  TEMPLATE_TYPES,
  TemplateInput,
  type TemplateListQuery,
  type TemplateOut,
  TemplateUpdateInput,
  type UnitTemplateOut,
  UNKNOWN_BUSINESS_UNIT,
} from "./schemas.ts";
import { inJson } from "../../../db/in_json.ts";

type Db = TenantDatabase | Tx;

const mine = (user: CurrentUser) => eq(templates.company_id, user.company_id);

/** One of the company's business units, or undefined. */
export async function findBusinessUnit(db: Db, user: CurrentUser, id: number) {
  return await db.select({ id: categories.id, name: categories.name }).from(categories).where(and(
    eq(categories.id, id),
    eq(categories.model, "Business Unit"),
    eq(categories.company_id, user.company_id),
  )).get();
}

/** Templates in their wire shape: the inventory of all of them read in one pass, kept in order. */
async function presentAll(db: Db, rows: { t: Template; unit: { id: number; name: string } }[]) {
  const rowsById = new Map(
    (await inventoryRowsByIds(db, rows.flatMap((r) => r.t.inventory_ids))).map((r) => [r.id, r]),
  );
  return rows.map(({ t, unit }): TemplateOut => {
    const inv = t.inventory_ids.flatMap((id) => rowsById.get(id) ?? []);
    return {
      id: t.id,
      version: t.version,
      company_id: t.company_id,
      created_by_id: t.created_by_id,
      name: t.name,
      business_unit_id: t.business_unit_id,
      inventory_ids: inv.map((r) => r.id),
      created_at: t.created_at,
      updated_at: t.updated_at,
      business_unit: unit,
      inventory: inv,
    };
  });
}

function selectTemplates(db: Db) {
  return db.select({ t: templates, unit: { id: categories.id, name: categories.name } }).from(templates)
    .innerJoin(categories, eq(categories.id, templates.business_unit_id));
}

const SORT = {
  name: sql`${templates.name} collate nocase`,
  business_unit: sql`${categories.name} collate nocase`,
  created_at: sql`${templates.created_at}`,
};

/**
 * GET /api/sales/templates: one business unit's templates by name. The spec searches templates only
 * with a unit chosen: without `search_business_unit` the answer is empty.
 */
export async function listTemplates(ctx: Ctx, q: TemplateListQuery): Promise<ListResult<TemplateOut>> {
  requireAbility(ctx.user, "sales.read");
  if (!q.search_business_unit) return { results: [], total: 0 };
  const where = and(
    mine(ctx.user),
    eq(templates.business_unit_id, q.search_business_unit),
    q.search_name ? sql`${templates.name} like ${likeContains(q.search_name)} escape '\\'` : undefined,
  );
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    selectTemplates(ctx.db).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), asc(SORT.name), asc(templates.id)).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(templates).where(where)),
  ]);
  return { results: await presentAll(ctx.db, rows), total };
}

/** GET /api/sales/templates/business-unit/{id}: every template of the unit, by name (404: no such unit). */
export async function listUnitTemplates(ctx: Ctx, unitId: number): Promise<{ results: UnitTemplateOut[] }> {
  requireAbility(ctx.user, "sales.read");
  if (!await findBusinessUnit(ctx.db, ctx.user, unitId)) {
    throw new AppError("not_found", "Business unit not found.");
  }
  const rows = await selectTemplates(ctx.db)
    .where(and(mine(ctx.user), eq(templates.business_unit_id, unitId)))
    .orderBy(asc(SORT.name), asc(templates.id));
  return {
    results: (await presentAll(ctx.db, rows)).map((t) => ({
      id: t.id,
      name: t.name,
      inventory_ids: t.inventory_ids,
    })),
  };
}

/** 422 naming every listed id that is not charge-code or itemized inventory of the unit. */
async function checkInventory(tx: Tx, unitId: number, ids: number[]) {
  if (!ids.length) return;
  const allowed = new Set<number>();
  for (let i = 0; i < ids.length; i += 400) {
    const rows = await tx.select({ id: inventory.id }).from(inventory)
      .innerJoin(items, eq(items.id, inventory.item_id))
      .where(and(
        inJson(inventory.id, ids.slice(i, i + 400)),
        eq(inventory.business_unit_id, unitId),
        inArray(items.inventory_type, [...TEMPLATE_TYPES]),
      ));
    for (const r of rows) allowed.add(r.id);
  }
  const errors: FieldError[] = ids.flatMap((id, i) =>
    allowed.has(id) ? [] : [{ path: `inventory_ids.${i}`, message: INVENTORY_RULE }]
  );
  if (errors.length) throw new AppError("invalid", INVENTORY_RULE, errors);
}

/**
 * POST /api/sales/templates (creates; with an id updates) and PUT (updates): sales-admin. The unit
 * must be one of the company's business units; names are unique within a unit; the inventory is
 * checked whole and stored in the order sent.
 */
export async function saveTemplate(
  ctx: Ctx,
  body: unknown,
  opts: { update?: boolean } = {},
): Promise<TemplateOut & { message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const input = parse(opts.update ? TemplateUpdateInput : TemplateInput, body);
  const id = await ctx.tdb.write(async (tx) => {
    const unit = await findBusinessUnit(tx, ctx.user, input.business_unit_id);
    if (!unit) throw invalid("business_unit_id", UNKNOWN_BUSINESS_UNIT);
    const taken = await tx.select({ id: templates.id }).from(templates).where(and(
      mine(ctx.user),
      eq(templates.business_unit_id, unit.id),
      sql`${templates.name} = ${input.name} collate nocase`,
      input.id === undefined ? undefined : ne(templates.id, input.id),
    )).limit(1).get();
    if (taken) throw new AppError("conflict", `A template with this name already exists in ${unit.name}.`);
    await checkInventory(tx, unit.id, input.inventory_ids);
    const values = { name: input.name, business_unit_id: unit.id, inventory_ids: input.inventory_ids };
    if (input.id === undefined) {
      const [row] = await tx.insert(templates)
        .values({ ...values, company_id: ctx.user.company_id, created_by_id: ctx.user.id })
        .returning({ id: templates.id });
      return row.id;
    }
    await requireTemplateMatch(tx, ctx, input.id);
    const [row] = await tx.update(templates).set({ ...values, updated_at: nowStamp() })
      .where(and(mine(ctx.user), eq(templates.id, input.id))).returning({ id: templates.id });
    if (!row) throw new AppError("not_found", "Template not found.");
    return row.id;
  });
  const [saved] = await presentAll(ctx.db, await selectTemplates(ctx.db).where(eq(templates.id, id)));
  return { ...saved, message: input.id === undefined ? "Template created" : "Template updated" };
}

/** A stale If-Match on a template: 412 with the template as it is now (decision 038); 404 when absent. */
async function requireTemplateMatch(tx: Tx, ctx: Ctx, id: number) {
  const row = await tx.select({ version: templates.version }).from(templates)
    .where(and(mine(ctx.user), eq(templates.id, id))).get();
  if (!row) throw new AppError("not_found", "Template not found.");
  await requireMatch(ctx, row.version, async () => {
    const [current] = await presentAll(tx, await selectTemplates(tx).where(eq(templates.id, id)));
    return current;
  });
}

/** DELETE /api/sales/templates/{id}: sales-admin. */
export async function deleteTemplate(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "sales.admin");
  const gone = await ctx.tdb.write(async (tx) => {
    await requireTemplateMatch(tx, ctx, id);
    return await tx.delete(templates).where(and(mine(ctx.user), eq(templates.id, id)))
      .returning({ id: templates.id });
  });
  if (!gone.length) throw new AppError("not_found", "Template not found.");
  return { message: "Template deleted" };
}
