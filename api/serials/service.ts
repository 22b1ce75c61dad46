import { asc, eq, sql } from "drizzle-orm";
import { categories, inventory, items } from "../../db/schema/mod.ts";
import type { Ctx } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";
import { can } from "../../lib/policy.ts";
import { timeZoneOf } from "../../lib/format.ts";
import { pageWindow } from "../lib/list_query.ts";
import { xlsxResponse } from "../lib/xlsx.ts";
import { mergeNewestFirst } from "./merge.ts";
import { auditSource, inspectionSource, sameSerial, ticketSource, type TimelineSource } from "./sources.ts";
import { eventText } from "./rules.ts";
import {
  NO_HISTORY,
  type SerialEvent,
  type SerialHistory,
  type SerialQuery,
  type SerialUnit,
} from "./schemas.ts";

/** Rows read from a source at a time when a page lies deep in the history or a download walks it all. */
const CHUNK = 1000;
/** A serial number is on a handful of rows (one per item and business unit); the header shows this many. */
const MAX_UNITS = 50;

/**
 * The timeline's sources a user may read, in the order same-instant events are listed: inspections for
 * everyone (each user's PT scope applies in the query), tickets and the audit log for the owner company's
 * staff (Sales read).
 */
export function sourcesFor(ctx: Ctx, serial: string): TimelineSource<SerialEvent>[] {
  const out: TimelineSource<SerialEvent>[] = [inspectionSource(ctx, serial)];
  if (can(ctx.user, "sales.read")) out.push(ticketSource(ctx, serial), auditSource(ctx, serial));
  return out;
}

/** The inventory rows holding the serial number (Sales read only). */
async function unitsOf(ctx: Ctx, serial: string): Promise<SerialUnit[]> {
  if (!can(ctx.user, "sales.read")) return [];
  return await ctx.db.select({
    id: inventory.id,
    item_number: items.item_number,
    item_description: items.item_description,
    inventory_type: items.inventory_type,
    business_unit: sql<string>`coalesce(${categories.name}, '')`,
    location: inventory.location,
    status: inventory.status,
    hidden: inventory.hidden,
    quantity: inventory.quantity,
  }).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .leftJoin(categories, eq(categories.id, inventory.business_unit_id))
    .where(sameSerial(inventory.serial_number, serial))
    .orderBy(asc(inventory.id)).limit(MAX_UNITS);
}

/** One page of the merged timeline, newest first, and how many events it has in all. */
async function timelinePage(
  ctx: Ctx,
  serial: string,
  q: SerialQuery,
): Promise<{ events: SerialEvent[]; total: number }> {
  const sources = sourcesFor(ctx, serial);
  const total = (await Promise.all(sources.map((s) => s.count()))).reduce((a, b) => a + b, 0);
  const { limit, offset } = pageWindow(q);
  const want = limit === -1 ? total : Math.min(limit, total - offset);
  if (want <= 0) return { events: [], total };
  // Each source reads at most offset + want rows (its newest), in chunks: never the whole history.
  const chunk = Math.min(offset + want, CHUNK);
  const events: SerialEvent[] = [];
  let skipped = 0;
  for await (const e of mergeNewestFirst(sources.map((s) => s.read), chunk)) {
    if (skipped++ < offset) continue;
    events.push(e);
    if (events.length === want) break;
  }
  return { events, total };
}

/**
 * GET /api/serials/{serial}: the inventory rows holding the serial and one page of its history (its
 * inspections, the ticket lines it went out on, its inventory audit rows), newest first. What the user
 * may not see is left out in the queries; a serial with nothing the user may see is 404, whether it
 * exists or not.
 */
export async function serialHistory(ctx: Ctx, serial: string, q: SerialQuery): Promise<SerialHistory> {
  const [units, page] = await Promise.all([unitsOf(ctx, serial), timelinePage(ctx, serial, q)]);
  if (!units.length && !page.total) throw new AppError("not_found", NO_HISTORY);
  return { serial, units, ...page };
}

export const SERIAL_COLUMNS = [
  { header: "Date", key: "at", width: 18, instant: true },
  { header: "Kind", key: "kind", width: 22 },
  { header: "What", key: "what", width: 70 },
  { header: "Who", key: "who", width: 22 },
  { header: "Serial Number", key: "serial_number", width: 18 },
];

/** `Serial-<serial>`: the file name keeps letters, digits, dot, dash and underscore only. */
export const serialFileName = (serial: string) => `Serial-${serial.replace(/[^A-Za-z0-9._-]+/g, "_")}`;

/**
 * GET /api/serials/{serial}/download: the whole timeline as Serial-<serial>-YYYY-MM-DD.xlsx. The first
 * read (a serial with nothing to show is 404) comes before the answer starts; then the merge streams,
 * each source read a chunk at a time as the file is written.
 */
export async function downloadSerialHistory(ctx: Ctx, serial: string, today = new Date()): Promise<Response> {
  await serialHistory(ctx, serial, { page: 1, rowsPerPage: 1 });
  const timeZone = timeZoneOf(ctx.user.company.settings);
  const events = mergeNewestFirst(sourcesFor(ctx, serial).map((s) => s.read), CHUNK);
  const rows = (async function* () {
    for await (const e of events) {
      yield { at: e.at, serial_number: e.serial_number, ...eventText(e, timeZone) };
    }
  })();
  return xlsxResponse(serialFileName(serial), SERIAL_COLUMNS, rows, today, { timeZone });
}
