/**
 * Demo tickets in every stage of the document flow: quotes, open tickets (one from a template, one
 * without min-rate logic), ready to bill (one partly checked in), one awaiting approval, one rejected
 * back to ready-to-bill (disputed) and approved invoices (one paid, one with a sold line), dated over
 * the last month. Everything goes through the services a signed-in user's requests use, so the stock
 * holds, numbers, inventory log and audit rows are the ones real use writes.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { TenantDatabase } from "../db/client.ts";
import {
  categories,
  companies,
  type Company,
  inventory,
  items,
  sales,
  sub_categories,
  taxes,
  templates,
  tickets,
  users,
} from "../db/schema/mod.ts";
import type { Ctx } from "../api/lib/context.ts";
import { createTicket, updateTicket } from "../api/sales/tickets/service.ts";
import { saveLine } from "../api/sales/lines/service.ts";
import { checkIn } from "../api/sales/lines/checkin.ts";
import { saveRejection } from "../api/sales/rejections/service.ts";
import { contextFor, salesAdmin, UNITS } from "./demo_sales.ts";

type Unit = (typeof UNITS)[number][0];
type Stage = "QUOTE" | "OPEN" | "RFB" | "RFA" | "REJECTED" | "APP";

/** Item number, quantity; then the discount (%), quantity checked in and quantity sold. */
type LineSpec = [string, number, { discount?: number; in?: number; sold?: number }?];

interface TicketSpec {
  stage: Stage;
  unit: Unit;
  customer: string;
  /** Ticket date, days before today. */
  daysAgo: number;
  /** Days on location (for a finished job, the rental ends then); default: until today. */
  days?: number;
  location: string;
  productLine: [string, string];
  notes?: string;
  minRate?: boolean;
  /** Made from the unit's template; `lines` then sets the template lines' quantities. */
  template?: boolean;
  invoiceDaysAgo?: number;
  paid?: boolean;
  signed?: boolean;
  rejection?: string;
  lines: LineSpec[];
}

/** Days of a rental a min-rate line's minimum covers. */
const MIN_DAYS = 3;

const TICKETS: TicketSpec[] = [
  {
    stage: "APP",
    unit: "Midland",
    customer: "Permian Well Services",
    daysAgo: 28,
    days: 6,
    location: "PWS Tomahawk 22 #1H",
    productLine: ["Flowback", "Iron Rental"],
    invoiceDaysAgo: 21,
    paid: true,
    signed: true,
    lines: [
      ["GV-4", 1],
      ["FI-2SW", 6, { discount: 10 }],
      ["FI-2HU", 12, { discount: 10 }],
      ["FI-SEAL", 10],
      ["CC-MILE", 120],
    ],
  },
  {
    stage: "APP",
    unit: "Pecos",
    customer: "Lone Star Completions",
    daysAgo: 25,
    days: 8,
    location: "Lone Star Ranch 4-9 #2",
    productLine: ["Frac Rentals", "Ground Iron"],
    notes: "One pup joint washed out on location: sold to the customer.",
    invoiceDaysAgo: 14,
    signed: true,
    lines: [["PV-2", 1], ["FI-2PJ10", 6, { in: 5, sold: 1 }], ["FI-2HU", 8]],
  },
  {
    stage: "APP",
    unit: "Odessa",
    customer: "Red River Energy",
    daysAgo: 22,
    days: 9,
    location: "RRE Sandhills 14-2H",
    productLine: ["Frac Rentals", "Pump Services"],
    minRate: false,
    invoiceDaysAgo: 7,
    lines: [["PMP-TRF", 1], ["FI-3SW", 4, { discount: 15 }], ["FI-3TEE", 2]],
  },
  {
    stage: "REJECTED",
    unit: "Odessa",
    customer: "Basin Flow Partners",
    daysAgo: 20,
    days: 7,
    location: "Basin Flow Unit 31 #5H",
    productLine: ["Flowback", "Well Testing"],
    rejection: "Customer PO 4471 calls for 10% off the treating iron. Please apply it and resubmit.",
    lines: [["PV-3", 1], ["FI-3TI20", 6], ["FI-3X2", 2], ["FI-SEAL", 8]],
  },
  {
    stage: "RFA",
    unit: "Midland",
    customer: "Caprock Drilling",
    daysAgo: 18,
    days: 10,
    location: "Caprock State 7 #3",
    productLine: ["Flowback", "Iron Rental"],
    signed: true,
    lines: [["PV-2", 1], ["FI-2SW", 4], ["FI-2PJ10", 6, { discount: 10 }], ["FI-SEAL", 12], ["CC-DEL", 1]],
  },
  {
    stage: "RFB",
    unit: "Odessa",
    customer: "Permian Well Services",
    daysAgo: 15,
    days: 9,
    location: "PWS Hackberry 3 #2H",
    productLine: ["Flowback", "Well Testing"],
    lines: [
      ["CM-2", 1, { in: 1 }],
      ["FI-3SW", 4, { in: 4 }],
      ["FI-2PJ10", 6, { in: 6 }],
      ["CC-TECH", 12],
      ["CC-PICK", 1],
    ],
  },
  {
    stage: "RFB",
    unit: "Pecos",
    customer: "Red River Energy",
    daysAgo: 12,
    location: "RRE Toyah 40 #1",
    productLine: ["Frac Rentals", "Pump Services"],
    notes: "Pump released; iron still on location.",
    lines: [
      ["PMP-TRX", 1, { in: 1 }],
      ["FI-3TI20", 8, { in: 5 }],
      ["FI-2HU", 12],
      ["CC-DEL", 1],
      ["CC-MILE", 140],
    ],
  },
  {
    stage: "QUOTE",
    unit: "Pecos",
    customer: "Caprock Drilling",
    daysAgo: 9,
    days: 5,
    location: "Caprock Pecos Unit 2",
    productLine: ["Flowback", "Well Testing"],
    notes: "5-day flowback, pricing valid 30 days.",
    lines: [["PMP-TRF", 1], ["PV-2", 1], ["FI-2PJ10", 10], ["FI-2HU", 20], ["CC-TECH", 16]],
  },
  {
    stage: "OPEN",
    unit: "Odessa",
    customer: "Lone Star Completions",
    daysAgo: 6,
    location: "Lone Star Ranch 5-1 #4",
    productLine: ["Frac Rentals", "Pump Services"],
    minRate: false,
    lines: [["PMP-TRX", 1], ["PV-3", 1], ["FI-3TEE", 2], ["FI-3X2", 4], ["CC-STBY", 6], ["CC-DEL", 1]],
  },
  {
    stage: "QUOTE",
    unit: "Odessa",
    customer: "Red River Energy",
    daysAgo: 3,
    days: 10,
    location: "RRE Sandhills 15-1H",
    productLine: ["Frac Rentals", "Ground Iron"],
    notes: "10-day frac, iron at 10% off.",
    lines: [
      ["CM-2", 1],
      ["FI-3TI20", 8, { discount: 10 }],
      ["FI-3SW", 6, { discount: 10 }],
      ["FI-3TEE", 2],
      ["CC-DEL", 1],
      ["CC-MILE", 90],
      ["CC-PICK", 1],
    ],
  },
  {
    stage: "OPEN",
    unit: "Midland",
    customer: "Permian Well Services",
    daysAgo: 2,
    location: "PWS Tomahawk 23 #2H",
    productLine: ["Flowback", "Iron Rental"],
    template: true,
    lines: [["CC-MILE", 60], ["CC-TECH", 6], ["FI-2SW", 4], ["FI-2PJ10", 6], ["FI-2HU", 12]],
  },
  {
    stage: "OPEN",
    unit: "Midland",
    customer: "Basin Flow Partners",
    daysAgo: 1,
    location: "Basin Flow Unit 32 #1H",
    productLine: ["Flowback", "Well Testing"],
    lines: [["GV-4", 1], ["CV-2", 1], ["FI-2SW", 4], ["FI-2HU", 10, { discount: 5 }], ["CC-PT", 1]],
  },
];

export interface SeedTicketsResult {
  quotes: number;
  tickets: number;
  invoices: number;
}

const DAY = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

/** Lookups of the demo's reference data by name. */
async function reference(db: TenantDatabase) {
  const cats = await db.select().from(categories);
  const id = (model: string, name: string) => cats.find((c) => c.model === model && c.name === name)?.id;
  const subs = await db.select().from(sub_categories);
  const taxList = await db.select().from(taxes);
  const customers = await db.select().from(companies).where(eq(companies.company_type, "customer_company"));
  return {
    unit: (name: string) => id("Business Unit", name),
    productLine: (name: string) => id("Product Line", name),
    sub: (lineId: number | undefined, name: string) =>
      subs.find((s) => s.category_id === lineId && s.name === name)?.id,
    /** The county tax of the unit's city. */
    tax: (unit: string) => taxList.find((t) => t.city === unit)?.id,
    customer: (name: string) => customers.find((c) => c.name === name)?.id,
  };
}

/**
 * The unit's stock row of this item that can go out: for stock, an Available row with something
 * available (the quantity is cut to what is); charge codes any row; a quote's any Available row.
 * Undefined when there is none.
 */
async function stockFor(
  db: TenantDatabase,
  unitId: number,
  itemNumber: string,
  want: number,
  quote: boolean,
) {
  const rows = await db.select({
    id: inventory.id,
    status: inventory.status,
    available: sql<
      number
    >`${inventory.quantity} - ${inventory.quantity_out} - ${inventory.quantity_out_location}`,
    type: items.inventory_type,
    rate: items.rate,
    expendable: items.isExpendable,
  }).from(inventory).innerJoin(items, eq(items.id, inventory.item_id))
    .where(and(eq(inventory.business_unit_id, unitId), eq(items.item_number, itemNumber)))
    .orderBy(asc(inventory.id));
  if (rows[0]?.type === "Charge Code") return { ...rows[0], quantity: want };
  // A quote holds nothing: any row in service will do, at the quantity asked for.
  if (quote) {
    const row = rows.find((r) => r.status === "Available");
    return row && { ...row, quantity: want };
  }
  const row = rows.find((r) => r.status === "Available" && r.available >= 1);
  return row && { ...row, quantity: Math.min(want, row.available) };
}

/**
 * Price fields of a line. Min-rate logic: rentals charge the minimum (MIN_DAYS days at the rate)
 * plus the rate per additional day, charge codes and sold items their rate once. Without it: the
 * rate per day, charge codes and sold items once.
 */
function pricing(
  row: { type: string; rate: number | null; expendable: boolean },
  minRate: boolean,
  days: number,
) {
  const rate = row.rate ?? 0;
  const once = row.type === "Charge Code" || row.expendable;
  if (minRate) {
    return once
      ? { price: rate, minimum_rate: rate, duration: 0 }
      : { price: rate, minimum_rate: rate * MIN_DAYS, duration: Math.max(days - MIN_DAYS, 0) };
  }
  return { price: rate, duration: once ? 1 : Math.max(days, 1) };
}

async function seedTicket(
  ctx: Ctx,
  ref: Awaited<ReturnType<typeof reference>>,
  rep: number,
  spec: TicketSpec,
): Promise<void> {
  const unitId = ref.unit(spec.unit)!;
  const lineId = ref.productLine(spec.productLine[0]);
  const minRate = spec.minRate ?? true;
  const isQuote = spec.stage === "QUOTE";
  const ticketDate = dayAgo(spec.daysAgo);
  const days = spec.days ?? spec.daysAgo;
  const start = `${ticketDate}T07:00`;
  const finished = spec.days !== undefined && !isQuote;
  const end = finished ? `${dayAgo(spec.daysAgo - spec.days!)}T17:00` : undefined;
  const template = spec.template
    ? await ctx.db.select({ id: templates.id }).from(templates)
      .where(eq(templates.business_unit_id, unitId)).orderBy(asc(templates.id)).get()
    : undefined;

  const ticket = await createTicket(ctx, {
    customer_id: ref.customer(spec.customer),
    sales_rep_id: rep,
    tax_id: ref.tax(spec.unit),
    business_unit_id: unitId,
    product_line_id: lineId,
    sub_product_line_id: ref.sub(lineId, spec.productLine[1]),
    location: spec.location,
    notes: spec.notes ?? "",
    ticket_date: ticketDate,
    use_min_rate_logic: minRate,
    status: isQuote ? "QUOTE" : "OPEN",
    template_id: template?.id,
  });

  // A template's lines are already there (one of each, starting now): the rig-up sets them as built.
  const fromTemplate = template
    ? await ctx.db.select({ id: sales.id, number: items.item_number }).from(sales)
      .innerJoin(inventory, eq(inventory.id, sales.inventory_id))
      .innerJoin(items, eq(items.id, inventory.item_id))
      .where(eq(sales.ticket_id, ticket.id))
    : [];
  const checkIns: { id: number; in: number; sold: number }[] = [];
  for (const [number, want, opts = {}] of spec.lines) {
    const row = await stockFor(ctx.db, unitId, number, want, isQuote);
    if (!row) continue;
    const existing = fromTemplate.find((l) => l.number === number);
    const body = {
      ...(existing ? { id: existing.id } : { ticket_id: ticket.id, inventory_id: row.id }),
      quantity: existing && row.type !== "Charge Code" ? Math.min(want, row.available + 1) : row.quantity,
      ...pricing(row, minRate, days),
      discount: opts.discount ?? 0,
      ...(isQuote ? {} : { start_date: start, end_date: end ?? null }),
    };
    const line = await saveLine(ctx, body, { update: !!existing });
    if (opts.in || opts.sold) checkIns.push({ id: line.id, in: opts.in ?? 0, sold: opts.sold ?? 0 });
    else if (finished && row.type !== "Charge Code" && !row.expendable) {
      checkIns.push({ id: line.id, in: line.quantity, sold: 0 });
    }
  }
  if (checkIns.length) {
    await checkIn(ctx, {
      ticket_id: ticket.id,
      line_items: checkIns.map((c) => c.id),
      quantities_in: checkIns.map((c) => c.in),
      quantities_sold: checkIns.map((c) => c.sold),
      quantity_dates: checkIns.map(() => end ?? `${dayAgo(1)}T16:00`),
    });
  }

  const move = (body: Record<string, unknown>) => updateTicket(ctx, { id: ticket.id, ...body });
  if (spec.stage === "OPEN" || isQuote) return;
  await move({ status: "RFB" });
  if (spec.stage === "RFB") return;
  await move({ status: "RFA", isSigned: spec.signed ?? false });
  if (spec.stage === "REJECTED") {
    await saveRejection(ctx, { ticket_id: ticket.id, comment: spec.rejection, resolved: false });
    return;
  }
  if (spec.stage === "RFA") return;
  await move({ status: "APP", invoice_date: dayAgo(spec.invoiceDaysAgo ?? 0) });
  if (spec.paid) await move({ isPaid: true, isBilled: true });
}

/**
 * Adds the demo tickets unless the tenant has tickets already (a second run, or a tenant in use):
 * then it does nothing and answers undefined, as it does without the demo's business units.
 * The same dozen tickets for every demo size.
 */
export async function seedTickets(
  db: TenantDatabase,
  owner: Company,
  log: (line: string) => void = () => {},
): Promise<SeedTicketsResult | undefined> {
  if (await db.select({ id: tickets.id }).from(tickets).limit(1).get()) return undefined;
  const user = await salesAdmin(db, owner);
  if (!user || !user.permissions.includes("approval-authority")) return undefined;
  const ref = await reference(db);
  if (!UNITS.every(([name]) => ref.unit(name))) return undefined;
  const ctx = contextFor(db, user);
  const reps = (await db.select({ id: users.id }).from(users).where(and(
    eq(users.company_id, owner.id),
    eq(users.active, true),
    eq(users.isSalesRep, true),
  )).orderBy(asc(users.id))).map((u) => u.id);
  if (!reps.length) reps.push(user.id);

  for (const [i, spec] of TICKETS.entries()) await seedTicket(ctx, ref, reps[i % reps.length], spec);
  const quotes = TICKETS.filter((t) => t.stage === "QUOTE").length;
  const invoices = TICKETS.filter((t) => t.stage === "APP").length;
  log(`sales: ${TICKETS.length - quotes} tickets (${invoices} invoiced), ${quotes} quotes`);
  return { quotes, tickets: TICKETS.length - quotes, invoices };
}
