import { and, asc, type Column, eq, ne, or, type SQL, sql } from "drizzle-orm";
import { inventory, items, tickets } from "../../../db/schema/mod.ts";
import { AppError } from "../../../lib/errors.ts";
import type { TenantDatabase, Tx } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { likeContains, type ListResult } from "../../lib/list_query.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { AVAILABLE, units } from "../inventory/service/query.ts";
import { type InventoryRowOut, type InventoryRowsQuery, PICKER_ROWS } from "./schemas.ts";
import { inJson } from "../../../db/in_json.ts";

type Db = TenantDatabase | Tx;

const FIELDS = {
  id: inventory.id,
  serial_number: inventory.serial_number,
  inventory_description: inventory.inventory_description,
  status: inventory.status,
  item: {
    item_number: items.item_number,
    item_description: items.item_description,
    inventory_type: items.inventory_type,
  },
  business_unit: { id: units.id, name: units.name },
  quantity: inventory.quantity,
  quantity_available: AVAILABLE,
};

function selectRows(db: Db) {
  return db.select(FIELDS).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .innerJoin(units, eq(units.id, inventory.business_unit_id));
}

/**
 * Rows in the picker's order, as a walk: items by number (their index), each item's rows by serial number
 * (`inventory_item_serial_idx`), stopping at the page. `cross join` keeps items the outer loop: SQLite 3.53
 * otherwise read every visible row and sorted them.
 */
function walkRows(db: Db, where: SQL | undefined) {
  return db.select(FIELDS).from(items).crossJoin(inventory)
    .innerJoin(units, eq(units.id, inventory.business_unit_id))
    .where(and(eq(items.id, inventory.item_id), where))
    .orderBy(...PICKER_ORDER);
}

const present = (r: Awaited<ReturnType<ReturnType<typeof selectRows>["all"]>>[number]): InventoryRowOut => ({
  ...r,
  quantity_available: Number(r.quantity_available),
});

/** The trigram index reads three characters at a time: shorter words are matched by LIKE alone. */
const FTS_MIN_CHARS = 3;

/**
 * One word of the search: in the serial number or the row's description (found through the trigram
 * index `inventory_fts` for 3+ characters, then checked by LIKE), or in the item's number or
 * description (the ids of matching items, a look-up in the small items table). Either way each row
 * is checked by id look-ups, not LIKEs, while the picker's order is read from an index.
 */
function wordMatches(w: string): SQL {
  const like = likeContains(w);
  const contains = (col: Column) => sql`${col} like ${like} escape '\\'`;
  const own = or(contains(inventory.serial_number), contains(inventory.inventory_description))!;
  const item = sql`+${inventory.item_id} in (${sql`select ${items.id} from ${items} where ${
    or(contains(items.item_number), contains(items.item_description))
  }`})`;
  if ([...w].length < FTS_MIN_CHARS) return or(own, item)!;
  const phrase = `"${w.replaceAll('"', '""')}"`;
  const found = sql`${inventory.id} in (select rowid from inventory_fts where inventory_fts match ${phrase})`;
  return or(and(found, own), item)!;
}

/** Every word of the search is in the serial number, the item number or either description. */
function wordsMatch(text: string): SQL | undefined {
  return and(...text.split(/\s+/).filter(Boolean).slice(0, 8).map(wordMatches));
}

const PICKER_ORDER = [
  asc(sql`${items.item_number} collate nocase`),
  asc(sql`${inventory.serial_number} collate nocase`),
  asc(inventory.id),
];

const CHUNK = 400;

/** These rows, in the order of `ids`; ids that no longer exist are left out. */
export async function inventoryRowsByIds(db: Db, ids: readonly number[]): Promise<InventoryRowOut[]> {
  const found = new Map<number, InventoryRowOut>();
  const distinct = [...new Set(ids)];
  for (let i = 0; i < distinct.length; i += CHUNK) {
    const rows = await selectRows(db).where(inJson(inventory.id, distinct.slice(i, i + CHUNK)));
    for (const r of rows) found.set(r.id, present(r));
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

/**
 * GET /api/sales/inventory-rows: the inventory picker of ticket lines and templates. With `ids`,
 * exactly those rows in that order (what a template holds); otherwise the first 20 visible rows of
 * the given types and unit whose serial number, item number or description hold every word of
 * `search_multi`, by item number and serial number.
 *
 * With `ticket_id` (the line picker of that ticket; 404 when it does not exist): the first 20 visible
 * rows of every type matching `search_multi`, the ticket's business unit first (the picker shows the
 * others' rows, with their status, as ones that cannot go out on it). A Serialized row without a serial number is left out
 * (it cannot be told apart from its siblings); Itemized and Charge Code rows are kept whatever their
 * serial number, since those are often blank.
 */
export async function listInventoryRows(
  ctx: Ctx,
  q: InventoryRowsQuery,
): Promise<ListResult<InventoryRowOut>> {
  requireAbility(ctx.user, "sales.read");
  if (q.ids) {
    const results = await inventoryRowsByIds(ctx.db, q.ids);
    return { results, total: results.length };
  }
  if (q.ticket_id) {
    const ticket = await ctx.db.select({ id: tickets.id, unit: tickets.business_unit_id }).from(tickets)
      .where(eq(tickets.id, q.ticket_id)).get();
    if (!ticket) throw new AppError("not_found", "Ticket not found.");
    const where = and(
      eq(inventory.hidden, false),
      sql`not (${items.inventory_type} = 'Serialized' and trim(${inventory.serial_number}) = '')`,
      q.search_multi ? wordsMatch(q.search_multi) : undefined,
    );
    // The ticket's own unit first (other units' rows are shown, but cannot go out on it): two reads
    // in the index's order, each stopping at 20, rather than one sort of every match.
    const own = ticket.unit
      // `+`: the unit is a filter on the walk, not an index to read every unit row from and then sort (with an
      // index on unit names the planner chose that).
      ? await walkRows(ctx.db, and(where, sql`+${inventory.business_unit_id} = ${ticket.unit}`)).limit(
        PICKER_ROWS,
      )
      : [];
    const others = own.length < PICKER_ROWS
      ? await walkRows(
        ctx.db,
        and(where, ticket.unit ? ne(inventory.business_unit_id, ticket.unit) : undefined),
      )
        .limit(PICKER_ROWS - own.length)
      : [];
    const rows = [...own, ...others];
    return { results: rows.map(present), total: rows.length };
  }
  const rows = await walkRows(
    ctx.db,
    and(
      eq(inventory.hidden, false),
      q.inventory_type ? inJson(items.inventory_type, q.inventory_type) : undefined,
      q.business_unit_id ? eq(inventory.business_unit_id, q.business_unit_id) : undefined,
      q.search_multi ? wordsMatch(q.search_multi) : undefined,
    ),
  ).limit(PICKER_ROWS);
  return { results: rows.map(present), total: rows.length };
}
