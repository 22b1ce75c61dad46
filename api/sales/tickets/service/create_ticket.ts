import { and, eq } from "drizzle-orm";
import { timeZoneOf } from "../../../../lib/format.ts";
import {
  categories,
  companies,
  inventory,
  items,
  sub_categories,
  taxes,
  templates,
  type Ticket,
  tickets,
  users,
} from "../../../../db/schema/mod.ts";
import type { Tx } from "../../../../db/client.ts";
import type { Ctx, CurrentUser } from "../../../lib/context.ts";
import { invalid } from "../../../../lib/errors.ts";
import { nowStamp } from "../../../lib/db_helpers.ts";
import { parse } from "../../../lib/validate.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { nextNumber } from "../numbers.ts";
import { requireTicketFields } from "../required.ts";
import { CUSTOMER_REQUIRED, SALES_REP_REQUIRED, TicketInput, type TicketUpdateInput } from "../schemas.ts";
import { insertLine } from "./hold.ts";
import { newLineRates } from "../../lines/defaults.ts";
import { linesOf, presentTicket, type TicketOut, today } from "./query.ts";
import { inJson } from "../../../../db/in_json.ts";

type Parties = Partial<Pick<TicketUpdateInput, "customer_id" | "sales_rep_id" | "tax_id">> & {
  business_unit_id?: number | null;
  product_line_id?: number | null;
  sub_product_line_id?: number | null;
};

/** Every id the body names must be one this company may use (422 naming the field otherwise). */
export async function checkParties(tx: Tx, user: CurrentUser, p: Parties): Promise<void> {
  if (p.customer_id != null) {
    const c = await tx.select({ id: companies.id }).from(companies)
      .where(and(eq(companies.id, p.customer_id), eq(companies.isOwner, false))).get();
    if (!c) throw invalid("customer_id", CUSTOMER_REQUIRED);
  }
  if (p.sales_rep_id != null) {
    const r = await tx.select({ id: users.id }).from(users).where(and(
      eq(users.id, p.sales_rep_id),
      eq(users.company_id, user.company_id),
      eq(users.active, true),
    )).get();
    if (!r) throw invalid("sales_rep_id", SALES_REP_REQUIRED);
  }
  if (p.tax_id != null) {
    const t = await tx.select({ id: taxes.id }).from(taxes)
      .where(and(eq(taxes.id, p.tax_id), eq(taxes.company_id, user.company_id))).get();
    if (!t) throw invalid("tax_id", "Unknown tax");
  }
  for (
    const [key, model] of [["business_unit_id", "Business Unit"], [
      "product_line_id",
      "Product Line",
    ]] as const
  ) {
    const id = p[key];
    if (id == null) continue;
    const c = await tx.select({ id: categories.id }).from(categories).where(and(
      eq(categories.id, id),
      eq(categories.model, model),
      eq(categories.company_id, user.company_id),
    )).get();
    if (!c) throw invalid(key, `Unknown ${model.toLowerCase()}`);
  }
  if (p.sub_product_line_id != null) {
    const s = await tx.select({ id: sub_categories.id }).from(sub_categories)
      .where(eq(sub_categories.id, p.sub_product_line_id)).get();
    if (!s) throw invalid("sub_product_line_id", "Unknown sub product line");
  }
}

/**
 * Fills a new ticket with its template's inventory, in the template's order: one of each priced as
 * the line form prices a new line, the ticket's tax on taxable items, starting now. Stock is held as for any line.
 */
async function fillFromTemplate(tx: Tx, user: CurrentUser, ticket: Ticket, templateId: number) {
  const tpl = await tx.select().from(templates)
    .where(and(eq(templates.id, templateId), eq(templates.company_id, user.company_id))).get();
  if (!tpl) throw invalid("template_id", "Unknown template");
  if (!tpl.inventory_ids.length) return;
  const rows = await tx.select({ inv: inventory, item: items }).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id)).where(inJson(inventory.id, tpl.inventory_ids));
  const byId = new Map(rows.map((r) => [r.inv.id, r]));
  const tax = ticket.tax_id
    ? await tx.select().from(taxes).where(eq(taxes.id, ticket.tax_id)).get()
    : undefined;
  let order = 0;
  for (const id of tpl.inventory_ids) {
    const r = byId.get(id);
    if (!r) continue;
    const taxed = r.item.isTaxable && tax;
    await insertLine(tx, user, ticket, {
      inventory_id: id,
      order: ++order,
      start_date: nowStamp(),
      quantity: 1,
      duration: ticket.use_min_rate_logic ? 0 : 1,
      discount: 0,
      // the line form's defaults (a row without its own rates takes the item's rate)
      ...newLineRates({ ...r.inv, rate: r.item.rate }, ticket.use_min_rate_logic),
      use_min_rate_logic: ticket.use_min_rate_logic,
      state_tax: taxed ? tax.state_rate : null,
      county_tax: taxed ? tax.county_rate : null,
      city_tax: taxed ? tax.city_rate : null,
    });
  }
}

/** POST /api/sales/tickets: any sales user; a quote is numbered from the quote series. */
export async function createTicket(ctx: Ctx, body: unknown): Promise<TicketOut & { message: string }> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(TicketInput, body);
  requireTicketFields(ctx.user.company.settings, input);
  const isQuote = input.status === "QUOTE" || input.isQuote === true;
  const out = await ctx.tdb.write(async (tx) => {
    await checkParties(tx, ctx.user, input);
    const [ticket] = await tx.insert(tickets).values({
      company_id: ctx.user.company_id,
      created_by_id: ctx.user.id,
      ticket_number: await nextNumber(tx, isQuote ? "quote" : "ticket", ctx.user.company.settings),
      ticket_date: input.ticket_date ?? today(timeZoneOf(ctx.user.company.settings)),
      customer_id: input.customer_id,
      sales_rep_id: input.sales_rep_id,
      tax_id: input.tax_id ?? null,
      business_unit_id: input.business_unit_id ?? null,
      product_line_id: input.product_line_id ?? null,
      sub_product_line_id: input.sub_product_line_id ?? null,
      location: input.location ?? "",
      notes: input.notes ?? "",
      status: isQuote ? "QUOTE" : "OPEN",
      isQuote,
      use_min_rate_logic: input.use_min_rate_logic ?? true,
      final_bill: input.final_bill ?? false,
      custom: input.custom ?? {},
      template_id: input.template_id ?? null,
    }).returning();
    if (input.template_id) await fillFromTemplate(tx, ctx.user, ticket, input.template_id);
    return await presentTicket(tx, ctx.user, ticket.id);
  });
  return { ...out, message: isQuote ? "Quote created" : "Ticket created" };
}

/**
 * The OPEN copy of a quote (CLONEQUOTE): a new ticket number, its lines copied (starting now when the
 * quote's line has no start date), stock held.
 */
export async function cloneQuote(tx: Tx, user: CurrentUser, quote: Ticket): Promise<number> {
  const { id: _id, created_at: _c, updated_at: _u, invoice_number: _i, invoice_date: _d, ...fields } = quote;
  const [copy] = await tx.insert(tickets).values({
    ...fields,
    created_by_id: user.id,
    ticket_number: await nextNumber(tx, "ticket", user.company.settings),
    ticket_date: today(timeZoneOf(user.company.settings)),
    status: "OPEN",
    isQuote: false,
    isInvoice: false,
    isSigned: false,
    isBilled: false,
    isPaid: false,
    clone: true,
    source_ticket_id: quote.id,
  }).returning();
  for (const l of await linesOf(tx, quote.id)) {
    const {
      id: _lid,
      ticket_id: _t,
      company_id: _co,
      created_at: _lc,
      updated_at: _lu,
      quantity_held: _h,
      ...line
    } = l;
    // A quote's lines have no dates; the ticket's start when copied (the line form requires one).
    await insertLine(tx, user, copy, { ...line, start_date: line.start_date ?? nowStamp(), isSold: false });
  }
  return copy.id;
}
