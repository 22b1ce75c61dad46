import { and, asc, count, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { companies, type Company, taxes, users } from "../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { requireMatch } from "../../lib/preconditions.ts";
import {
  likeContains,
  ListQuery,
  type ListResult,
  listTotal,
  optionalText,
  pageWindow,
  queryBool,
  queryEnum,
} from "../../lib/list_query.ts";
import { can, requireAbility } from "../../../lib/policy.ts";
import { COMPANY_TYPES, type CompanyInput } from "./schemas.ts";
import { bumpVersion, isForeignKeyError, nowStamp } from "../../lib/db_helpers.ts";
import { companyLogoProblem } from "../../sales/printing/logo.ts";
import { documentSettingsProblem } from "../../sales/printing/document_settings.ts";
import { ticketRequiredProblem } from "../../sales/tickets/required.ts";
import { returnGateProblem } from "../../../lib/return_gate.ts";
import { publicBaseUrlProblem } from "../../../lib/public_base_url.ts";
import { inJson } from "../../../db/in_json.ts";
import { xlsxResponse } from "../../lib/xlsx.ts";
import { everyRow } from "../../lib/list_query.ts";
import { timeZoneOf } from "../../../lib/format.ts";
import { COMPANY_TYPE_LABELS } from "../../../lib/enums.ts";

export const CompanyListQuery = ListQuery.extend({
  search_name: optionalText,
  type: queryEnum(COMPANY_TYPES),
  sortBy: queryEnum(["name", "company_type", "created_at"]),
});
export type CompanyListQuery = z.infer<typeof CompanyListQuery>;

/** The look-ups of the forms (customer, operator, user's company): small pages by default. */
export const CompanySearchQuery = ListQuery.extend({
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  search_name: optionalText,
  q: optionalText,
  type: queryEnum(COMPANY_TYPES),
  isOwner: queryBool.optional(),
  forUser: queryBool.optional(),
  sortBy: queryEnum(["name"]),
});
export type CompanySearchQuery = z.infer<typeof CompanySearchQuery>;

export interface CompanyOut {
  id: number;
  /** Decision 038: sent back as If-Match by the edit form (settings included) and the delete. */
  version: number;
  name: string;
  company_type: Company["company_type"];
  isOwner: boolean;
  tax_id: number | null;
  custom: Record<string, unknown>;
  settings: Record<string, unknown>;
  users: { id: number; name: string; email: string }[];
  created_at: string;
  updated_at: string;
}

export interface CompanyHit {
  id: number;
  name: string;
  company_type: Company["company_type"];
  isOwner: boolean;
}

const nameContains = (text: string) => sql`${companies.name} like ${likeContains(text)} escape '\\'`;

/** Companies with their users, in the order given. */
export async function presentCompanies(db: TenantDatabase | Tx, rows: Company[]): Promise<CompanyOut[]> {
  const byCompany = new Map<number, CompanyOut["users"]>(rows.map((r) => [r.id, []]));
  const ids = [...byCompany.keys()];
  // Chunked: "All" rows may be more ids than SQLite takes as parameters.
  for (let i = 0; i < ids.length; i += 500) {
    const found = await db.select({
      id: users.id,
      name: users.name,
      email: users.email,
      company_id: users.company_id,
    })
      .from(users).where(inJson(users.company_id, ids.slice(i, i + 500)))
      .orderBy(sql`${users.name} collate nocase`, users.id);
    for (const { company_id, ...u } of found) byCompany.get(company_id)!.push(u);
  }
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    name: r.name,
    company_type: r.company_type,
    isOwner: r.isOwner,
    tax_id: r.tax_id,
    custom: r.custom,
    settings: r.settings,
    users: byCompany.get(r.id)!,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

const SORT = {
  name: sql`${companies.name} collate nocase`,
  company_type: companies.company_type,
  created_at: companies.created_at,
};

/** GET /api/admin/companies: the companies page, for the owner company's staff. */
export async function listCompanies(ctx: Ctx, q: CompanyListQuery): Promise<ListResult<CompanyOut>> {
  requireAbility(ctx.user, "companies.view");
  const where = and(
    q.search_name ? nameContains(q.search_name) : undefined,
    q.type ? eq(companies.company_type, q.type) : undefined,
  );
  const dir = q.descending ? desc : asc;
  const { limit, offset } = pageWindow(q);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(companies).where(where)
      .orderBy(dir(SORT[q.sortBy ?? "name"]), dir(companies.id)).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(companies).where(where)),
  ]);
  return { results: await presentCompanies(ctx.db, rows), total };
}

export const COMPANY_COLUMNS = [
  { header: "Company", key: "name", width: 32 },
  { header: "Type", key: "type", width: 18 },
  { header: "Tax ID", key: "tax_id", width: 12 },
  { header: "Address line 1", key: "address_line_1", width: 30 },
  { header: "Address line 2", key: "address_line_2", width: 30 },
  { header: "Address line 3", key: "address_line_3", width: 30 },
  { header: "Users", key: "users", width: 8 },
  { header: "Created", key: "created_at", width: 18, date: true },
];

/** GET /api/admin/companies/download: the list's filters and order, every row, as Companies-YYYY-MM-DD.xlsx. */
export async function downloadCompanies(
  ctx: Ctx,
  q: CompanyListQuery,
  today = new Date(),
): Promise<Response> {
  requireAbility(ctx.user, "companies.view");
  const text = (v: unknown) => typeof v === "string" ? v : "";
  return xlsxResponse(
    "Companies",
    COMPANY_COLUMNS,
    await everyRow((page, rowsPerPage) => listCompanies(ctx, { ...q, page, rowsPerPage }), (c) => ({
      name: c.name,
      type: COMPANY_TYPE_LABELS[c.company_type] ?? c.company_type,
      tax_id: c.tax_id,
      address_line_1: text(c.custom.address_line_1),
      address_line_2: text(c.custom.address_line_2),
      address_line_3: text(c.custom.address_line_3),
      users: c.users.length,
      created_at: c.created_at,
    })),
    today,
    { timeZone: timeZoneOf(ctx.user.company.settings) },
  );
}

/**
 * GET /api/companies: the autocompletes. The owner company's staff search every company of the
 * tenant; anyone else only ever finds their own company.
 */
export async function searchCompanies(ctx: Ctx, q: CompanySearchQuery): Promise<ListResult<CompanyHit>> {
  const text = q.search_name ?? q.q;
  const conditions: (SQL | undefined)[] = [
    ctx.user.company.isOwner ? undefined : eq(companies.id, ctx.user.company_id),
    text ? nameContains(text) : undefined,
    q.type ? eq(companies.company_type, q.type) : undefined,
    q.isOwner === undefined ? undefined : eq(companies.isOwner, q.isOwner),
  ];
  const where = and(...conditions);
  const { limit, offset } = pageWindow(q);
  const [results, total] = await Promise.all([
    ctx.db.select({
      id: companies.id,
      name: companies.name,
      company_type: companies.company_type,
      isOwner: companies.isOwner,
    }).from(companies).where(where)
      .orderBy((q.descending ? desc : asc)(SORT.name), companies.id).limit(limit).offset(offset),
    listTotal(ctx, ctx.db.select({ total: count() }).from(companies).where(where)),
  ]);
  return { results, total };
}

/** Key order does not make two settings objects different. */
function canonical(v: unknown): string {
  return JSON.stringify(
    v,
    (_k, x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]]))
        : x,
  );
}

/**
 * A logo the PDFs would have to skip (too large, a bomb, not an image), an unusable document setting,
 * a return gate that is not true/false or a public base URL that is not an http(s) origin is refused when
 * it is saved.
 */
function checkLogos(settings: Record<string, unknown> | undefined) {
  if (!settings) return;
  const sales = settings.Sales as Record<string, unknown> | undefined;
  for (
    const [path, value] of [["settings.companyLogo", settings.companyLogo], [
      "settings.Sales.companyLogo",
      sales?.companyLogo,
    ]] as const
  ) {
    const problem = companyLogoProblem(value);
    if (problem) throw invalid(path, problem);
  }
  const setting = documentSettingsProblem(settings) ?? returnGateProblem(settings) ??
    publicBaseUrlProblem(settings) ?? ticketRequiredProblem(settings);
  if (setting) throw invalid(...setting);
}

/** POST /api/companies (creates, or updates with an id) and PATCH /api/companies (updates). */
export async function saveCompany(ctx: Ctx, input: CompanyInput): Promise<CompanyOut & { message: string }> {
  requireAbility(ctx.user, "companies.edit");
  requireAbility(ctx.user, "companies.view");
  const superuser = can(ctx.user, "companies.settings");
  checkLogos(input.settings);
  const saved = await ctx.tdb.write(async (tx) => {
    const current = input.id === undefined
      ? undefined
      : await tx.select().from(companies).where(eq(companies.id, input.id)).get();
    if (input.id !== undefined && !current) throw new AppError("not_found", "Company not found.");
    if (current) {
      await requireMatch(ctx, current.version, async () => (await presentCompanies(tx, [current]))[0]);
    }
    if (
      input.settings !== undefined && !superuser &&
      canonical(input.settings) !== canonical(current?.settings ?? {})
    ) {
      throw new AppError("forbidden", "Only a superuser can edit company settings.");
    }
    if (current?.isOwner && input.company_type !== current.company_type) {
      throw new AppError("conflict", "The owner company's type cannot change.");
    }
    const taken = await tx.select({ id: companies.id }).from(companies).where(and(
      eq(companies.company_type, input.company_type),
      sql`${companies.name} = ${input.name} collate nocase`,
      current ? ne(companies.id, current.id) : undefined,
    )).get();
    if (taken) throw new AppError("conflict", "A company with this name already exists.");
    // tax_id has no foreign key in the schema: a tax that does not exist would be stored dangling.
    if (
      input.tax_id && !(await tx.select({ id: taxes.id }).from(taxes).where(eq(taxes.id, input.tax_id)).get())
    ) {
      throw invalid("tax_id", "Unknown tax");
    }
    const values = {
      name: input.name,
      company_type: input.company_type,
      ...(input.tax_id !== undefined ? { tax_id: input.tax_id } : {}),
      ...(input.custom !== undefined ? { custom: input.custom } : {}),
      ...(input.settings !== undefined ? { settings: input.settings } : {}),
    };
    if (!current) return (await tx.insert(companies).values(values).returning())[0];
    return (await tx.update(companies).set({
      ...values,
      updated_at: nowStamp(),
      version: bumpVersion(companies.version),
    })
      .where(eq(companies.id, current.id)).returning())[0];
  });
  const [out] = await presentCompanies(ctx.db, [saved]);
  return { ...out, message: input.id === undefined ? "Company created" : "Company updated" };
}

/** DELETE /api/companies/{id}: superuser only; never the owner company or one that still has users. */
export async function deleteCompany(ctx: Ctx, id: number): Promise<{ message: string }> {
  requireAbility(ctx.user, "companies.delete");
  requireAbility(ctx.user, "companies.view");
  await ctx.tdb.write(async (tx) => {
    const current = await tx.select().from(companies).where(eq(companies.id, id)).get();
    if (!current) throw new AppError("not_found", "Company not found.");
    await requireMatch(ctx, current.version, async () => (await presentCompanies(tx, [current]))[0]);
    if (current.isOwner) throw new AppError("conflict", "The owner company cannot be deleted.");
    const [{ n }] = await tx.select({ n: count() }).from(users).where(eq(users.company_id, id));
    if (n > 0) throw new AppError("conflict", "This company still has users; move or delete them first.");
    try {
      await tx.delete(companies).where(eq(companies.id, id));
    } catch (e) {
      if (isForeignKeyError(e)) {
        throw new AppError("conflict", "This company is still used by other records.");
      }
      throw e;
    }
  });
  return { message: "Company deleted" };
}

/** Rows of later tables (jobs, tickets) refer to companies with ON DELETE RESTRICT. */
