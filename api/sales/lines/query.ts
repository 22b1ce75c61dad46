import { and, asc, eq, sql } from "drizzle-orm";
import { drivenByIds, idsValue, rowsInIdOrder, shaped } from "../../../db/shaped.ts";
import {
  companies,
  inventory,
  inventory_log,
  type InventoryLogEntry,
  items,
  type Sale,
  sales,
  type Ticket,
  tickets,
  users,
} from "../../../db/schema/mod.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { hoursBetween, type ItemKind, lineHandled, lineTotals } from "../tickets/rules.ts";
import type { AuditExtra } from "../inventory/audit.ts";
import { EXPENDABLE_HELD, HANDLED, NOT_HANDLED } from "./rules.ts";
import { fileUrl } from "../../files/service.ts";
import { ON_STOCK_ITEM } from "../inventory/service/query.ts";
import { inJson } from "../../../db/in_json.ts";

type Db = TenantDatabase | Tx;

/** The item fields a line shows and its rules need. */
export const LINE_ITEM_FIELDS = {
  id: items.id,
  item_number: items.item_number,
  item_description: items.item_description,
  rate: items.rate,
  units: items.units,
  inventory_type: items.inventory_type,
  isTaxable: items.isTaxable,
  isExpendable: items.isExpendable,
};

export interface LineItem {
  id: number;
  item_number: string;
  item_description: string;
  rate: number | null;
  units: string;
  inventory_type: string;
  isTaxable: boolean;
  isExpendable: boolean;
}

/** One line in its wire shape. */
export interface LineOut extends Sale {
  hours: number | null;
  sales_inventory: {
    id: number;
    serial_number: string;
    inventory_description: string;
    item: LineItem;
  };
  inventory_log: InventoryLogEntry[];
  calculated_inventory_status: string;
  calculated_tax: number;
  calculated_total: number;
  /** the attached PDF (`doc` is its name): `/api/files/{file_id}`, or null */
  fileURL: string | null;
}

const CHUNK = 400;

/** The logs of the lines given as one JSON array: one statement for any number of lines, built once. */
const LOGS_OF = shaped((db) =>
  drivenByIds(db.select().from(inventory_log), inventory_log.sale_id)
    .orderBy(asc(inventory_log.date), asc(inventory_log.id))
);

/** The inventory logs of these lines, oldest first, by line. */
export async function logsOf(db: Db, saleIds: number[]): Promise<Map<number, InventoryLogEntry[]>> {
  const out = new Map<number, InventoryLogEntry[]>();
  const ids = [...new Set(saleIds)];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await LOGS_OF.all(db, idsValue(ids.slice(i, i + CHUNK)));
    for (const r of rows) out.set(r.sale_id, [...out.get(r.sale_id) ?? [], r]);
  }
  return out;
}

/**
 * 'Fully Checked-In!' when the line is handled (expendable, sold, or nothing still out) and holds
 * nothing; a handled line still holding stock (an expendable before its invoice is approved) says so
 * instead (decision 039), so a line shown as checked in never holds stock.
 */
export function inventoryStatus(
  line: Pick<Sale, "quantity" | "isSold" | "quantity_held" | "quantity_pending">,
  item: ItemKind,
  logs: InventoryLogEntry[],
): string {
  if (!lineHandled(line, item, logs)) return NOT_HANDLED;
  return line.quantity_held + line.quantity_pending > 0 ? EXPENDABLE_HELD : HANDLED;
}

/** The calculated fields of a line: totals from the ticket's rules, hours, status. */
export function calculated(
  line: Sale,
  item: ItemKind,
  ticket: Pick<Ticket, "use_min_rate_logic"> & Partial<Pick<Ticket, "rounding">>,
  logs: InventoryLogEntry[],
) {
  const t = lineTotals(line, ticket);
  return {
    hours: line.hours ?? hoursBetween(line.start_date, line.end_date),
    calculated_tax: t.tax,
    calculated_total: t.total,
    calculated_inventory_status: inventoryStatus(line, item, logs),
  };
}

/**
 * Join conditions made once: a statement's joins are built once per condition (db/query_building.ts). A
 * line's ticket and stock row are joined by Sales Data too.
 */
export const ON_TICKET = eq(tickets.id, sales.ticket_id);
export const ON_STOCK = eq(inventory.id, sales.inventory_id);
const ON_CUSTOMER = eq(companies.id, tickets.customer_id);
const ON_REP = eq(users.id, tickets.sales_rep_id);

/** What a line row selects: one object, so its flat order and row mapper are worked out once. */
const LINE_ROW_FIELDS = {
  sale: sales,
  inv: {
    id: inventory.id,
    serial_number: inventory.serial_number,
    inventory_description: inventory.inventory_description,
  },
  item: LINE_ITEM_FIELDS,
  ticket: { use_min_rate_logic: tickets.use_min_rate_logic, rounding: tickets.rounding },
};

/** Lines of one ticket (or these ids) with their inventory and item, in their wire shape, by order. */
export async function loadLines(
  db: Db,
  where: { ticketId?: number; ids?: number[] },
): Promise<LineOut[]> {
  const rows = await db.select(LINE_ROW_FIELDS).from(sales)
    .innerJoin(tickets, ON_TICKET)
    .innerJoin(inventory, ON_STOCK)
    .innerJoin(items, ON_STOCK_ITEM)
    .where(and(
      where.ticketId ? eq(sales.ticket_id, where.ticketId) : undefined,
      where.ids ? inJson(sales.id, where.ids) : undefined,
    ))
    .orderBy(asc(sales.order), asc(sales.id));
  const logs = await logsOf(db, rows.map((r) => r.sale.id));
  return rows.map((r) => presentLine(r.sale, r.inv, r.item, r.ticket, logs.get(r.sale.id) ?? []));
}

/** A ticket's line ids in the lines' order: its (ticket, order) index alone, built once. */
const LINE_IDS_OF_TICKET = shaped((db) =>
  db.select({ id: sales.id }).from(sales).where(eq(sales.ticket_id, sql.placeholder("ticket")))
    .orderBy(asc(sales.order), asc(sales.id))
);

/** The ids of a ticket's lines, in order. */
export async function lineIdsOf(db: Db, ticketId: number): Promise<number[]> {
  return (await LINE_IDS_OF_TICKET.all(db, { ticket: ticketId })).map((r) => r.id);
}

/** Line rows of the ids given as one JSON array: one statement for any number of lines, built once. */
const LINE_ROWS_OF = shaped((db) =>
  drivenByIds(
    db.select(LINE_ROW_FIELDS).from(sales)
      .innerJoin(tickets, ON_TICKET)
      .innerJoin(inventory, ON_STOCK)
      .innerJoin(items, ON_STOCK_ITEM),
    sales.id,
  )
);

/** The lines of these ids in their wire shape, in the ids' order (an id no longer there is left out). */
export async function linesOfIds(db: Db, ids: number[]): Promise<LineOut[]> {
  const rows = await rowsInIdOrder(LINE_ROWS_OF, db, ids, (r) => r.sale.id);
  const logs = await logsOf(db, ids);
  return rows.map((r) => presentLine(r.sale, r.inv, r.item, r.ticket, logs.get(r.sale.id) ?? []));
}

/** A line in its wire shape, from its row, its stock row and item, its ticket's rule and its logs. */
export function presentLine(
  sale: Sale,
  inv: { id: number; serial_number: string; inventory_description: string },
  item: LineItem,
  ticket: Pick<Ticket, "use_min_rate_logic"> & Partial<Pick<Ticket, "rounding">>,
  log: InventoryLogEntry[],
): LineOut {
  return {
    ...sale,
    custom: sale.custom ?? {},
    ...calculated(sale, item, ticket, log),
    sales_inventory: {
      id: inv.id,
      serial_number: inv.serial_number,
      inventory_description: inv.inventory_description,
      item,
    },
    inventory_log: log,
    fileURL: sale.file_id ? fileUrl(sale.file_id) : null,
  };
}

/** A ticket with the names its audit rows copy: one object (its field order and row mapper made once). */
const TICKET_WITH_NAMES = {
  ticket: tickets,
  customer_name: companies.name,
  sales_rep_name: users.name,
};

/** One line in its wire shape; 404 when it does not exist. */
export async function getLine(db: Db, id: number): Promise<LineOut> {
  const [line] = await loadLines(db, { ids: [id] });
  if (!line) throw new AppError("not_found", "Line item not found.");
  return line;
}

/** Every line save reads its ticket: the statement is built once (db/shaped.ts). */
const TICKET_BY_ID = shaped((db) =>
  db.select(TICKET_WITH_NAMES).from(tickets)
    .innerJoin(companies, ON_CUSTOMER)
    .leftJoin(users, ON_REP)
    .where(eq(tickets.id, sql.placeholder("id")))
);

/** A ticket with the names its audit rows copy; 404 when it does not exist. */
export async function ticketFor(db: Db, id: number) {
  const row = await TICKET_BY_ID.get(db, { id });
  if (!row) throw new AppError("not_found", "Ticket not found.");
  return row;
}
export type TicketWithNames = Awaited<ReturnType<typeof ticketFor>>;

/** What the audit row of a line change copies from its ticket. */
export function auditExtra(t: TicketWithNames, startDate: string | null): AuditExtra {
  return {
    ticket_number: t.ticket.ticket_number,
    invoice_number: t.ticket.invoice_number ?? "",
    customer_name: t.customer_name,
    sales_rep_name: t.sales_rep_name ?? "",
    start_date: startDate,
  };
}
