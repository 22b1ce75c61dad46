import { and, count, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  companies,
  inspections,
  inventory,
  inventory_audit,
  items,
  jobs,
  parts,
  sales,
  tickets,
  users,
} from "../../db/schema/mod.ts";
import type { Ctx } from "../lib/context.ts";
import { listTotal } from "../lib/list_query.ts";
import { fileUrl } from "../files/service.ts";
import { inspectionScope } from "../pt/inspections/service/query.ts";
import type { Cursor } from "./merge.ts";
import type { AuditEvent, InspectionEvent, TicketEvent } from "./schemas.ts";

/** The serial number, matched as the serial indexes are built (`collate nocase`), so they serve it. */
export const sameSerial = (col: AnySQLiteColumn, serial: string): SQL =>
  sql`${col} = ${serial} collate nocase`;

/** Rows after the cursor in newest-first order: an earlier time, or the same time and a lower id. */
const after = (at: SQL | AnySQLiteColumn, id: AnySQLiteColumn, c: Cursor | undefined) =>
  c ? or(sql`${at} < ${c.at}`, and(sql`${at} = ${c.at}`, sql`${id} < ${c.id}`)) : undefined;

/**
 * One source of the timeline: its newest-first reads and how many rows it has for the serial. Each read
 * starts from the serial's index and reaches the rest by primary key: its joins are CROSS JOINs, which
 * SQLite never reorders, so a tenant's statistics (a few jobs or tickets) cannot turn it into a walk of
 * every job or ticket probing for the serial.
 */
export interface TimelineSource<T> {
  read(c: Cursor | undefined, limit: number): Promise<T[]>;
  count(): Promise<number>;
}

/** Inspections of the serial that the user sees (their PT scope), at the moment each was entered. */
export function inspectionSource(ctx: Ctx, serial: string): TimelineSource<InspectionEvent> {
  const where = and(sameSerial(inspections.serial_number, serial), inspectionScope(ctx.user));
  const i = inspections;
  return {
    count: () => listTotal(ctx, ctx.db.select({ total: count() }).from(i).where(where)),
    read: async (c, limit) => {
      const rows = await ctx.db.select({
        i,
        job: { id: jobs.id, job_number: jobs.job_number, inspector: jobs.inspector },
        part: parts.name,
      }).from(i).crossJoin(jobs).leftJoin(parts, eq(parts.id, i.part_id))
        .where(and(where, eq(jobs.id, i.job_id), after(i.inspection_time, i.id, c)))
        .orderBy(desc(i.inspection_time), desc(i.id)).limit(limit);
      return rows.map(({ i: r, job, part }) => ({
        kind: "inspection",
        id: r.id,
        at: r.inspection_time,
        serial_number: r.serial_number,
        inspection: {
          date: r.date,
          job: { id: job.id, job_number: job.job_number },
          inspector: job.inspector,
          part,
          batch: r.batch,
          visual_pass: r.visual_pass,
          ut: [r.ut_1, r.ut_2, r.ut_3],
          pressure: r.pressure,
          band_color: r.band_color,
          mpi_result: r.mpi_result,
          notes: r.notes,
          pressure_test_pdf: r.pressure_test_file_id ? fileUrl(r.pressure_test_file_id) : null,
          report: `/api/pt/inspections/${r.id}/report`,
        },
      }));
    },
  };
}

/** When a line went out: its start date, else when it was added. */
const lineAt = sql<string>`coalesce(${sales.start_date}, ${sales.created_at})`;
const LINE_FIELDS = {
  s: {
    id: sales.id,
    at: lineAt,
    start_date: sales.start_date,
    end_date: sales.end_date,
    quantity: sales.quantity,
    isSold: sales.isSold,
  },
  serial_number: inventory.serial_number,
  item_number: items.item_number,
  t: {
    id: tickets.id,
    ticket_number: tickets.ticket_number,
    invoice_number: tickets.invoice_number,
    status: tickets.status,
    isQuote: tickets.isQuote,
  },
  customer: companies.name,
  added_by: users.name,
};

/** Ticket lines on inventory rows of the serial, at each line's start date (else when it was added). */
export function ticketSource(ctx: Ctx, serial: string): TimelineSource<TicketEvent> {
  const where = sameSerial(inventory.serial_number, serial);
  const onRow = eq(sales.inventory_id, inventory.id);
  return {
    count: () =>
      listTotal(ctx, ctx.db.select({ total: count() }).from(inventory).innerJoin(sales, onRow).where(where)),
    read: async (c, limit) => {
      const rows = await ctx.db.select(LINE_FIELDS).from(inventory).crossJoin(sales).crossJoin(tickets)
        .innerJoin(items, eq(items.id, inventory.item_id))
        .leftJoin(companies, eq(companies.id, tickets.customer_id))
        .leftJoin(users, eq(users.id, sales.created_by_id))
        .where(and(where, onRow, eq(tickets.id, sales.ticket_id), after(lineAt, sales.id, c)))
        .orderBy(desc(lineAt), desc(sales.id)).limit(limit);
      return rows.map((r) => ({
        kind: "ticket",
        id: r.s.id,
        at: r.s.at,
        serial_number: r.serial_number,
        ticket: { ...r.t, customer: r.customer ?? "" },
        line: {
          id: r.s.id,
          item_number: r.item_number,
          start_date: r.s.start_date,
          end_date: r.s.end_date,
          quantity: r.s.quantity,
          isSold: r.s.isSold,
          added_by: r.added_by ?? "",
        },
      }));
    },
  };
}

/** Inventory audit rows of the serial: check-ins, reclasses, transfers, status and quantity changes. */
export function auditSource(ctx: Ctx, serial: string): TimelineSource<AuditEvent> {
  const a = inventory_audit;
  const where = sameSerial(a.serial_number, serial);
  return {
    count: () => listTotal(ctx, ctx.db.select({ total: count() }).from(a).where(where)),
    read: async (c, limit) => {
      const rows = await ctx.db.select().from(a).where(and(where, after(a.action_time, a.id, c)))
        .orderBy(desc(a.action_time), desc(a.id)).limit(limit);
      return rows.map((r) => ({
        kind: "audit",
        id: r.id,
        at: r.action_time,
        serial_number: r.serial_number,
        audit: {
          action: r.action,
          updated_by: r.updated_by_name,
          item_number: r.item_number,
          status: r.status,
          quantity: r.quantity,
          quantity_change: r.quantity_change,
          business_unit: r.business_unit,
          locations: r.locations,
          ticket_number: r.ticket_number,
          customer_name: r.customer_name,
        },
      }));
    },
  };
}
