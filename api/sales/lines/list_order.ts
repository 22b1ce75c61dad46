import { asc, type Column, count, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  categories,
  companies,
  inventory,
  items,
  sales,
  sub_categories,
  tickets,
  users,
} from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { DEEP_OFFSET, deepPageIds } from "../../lib/db_helpers.ts";
import { listTotal } from "../../lib/list_query.ts";

export const units = alias(categories, "sale_unit");
export const productLines = alias(categories, "sale_product_line");
export const customers = alias(companies, "sale_customer");
export const reps = alias(users, "sale_rep");

export const nocase = (col: Column) => sql`${col} collate nocase`;

/**
 * A walk of the lines in a sort's order: the tables in loop order (`cross join` fixes the order of the loop
 * in SQLite), each read through the index of the next key, so the page's ids come without a sort of every
 * line and the walk stops at the page. `tickets`: the tickets table is one of the loop's, so the filters on
 * the ticket are checked on its row, once per ticket. `where`: what every line of the walk must meet.
 */
export interface Walk {
  from: SQL;
  order: SQL[];
  tickets: boolean;
  where?: SQL;
}

const raw = (t: string) => sql.raw(`"${t}"`);
const linesOf = sql`cross join ${raw("sales")} on ${sales.ticket_id} = ${tickets.id}`;
const ticketsThenLines = sql`${raw("tickets")} ${linesOf}`;
const byTicket = (col: Column): Walk => ({
  from: ticketsThenLines,
  order: [sql`${col}`, sql`${tickets.id}`, sql`${sales.order}`, sql`${sales.id}`],
  tickets: true,
});

/**
 * Sorts on a column of the line's ticket or stock row that always exists: the parent in that order (its
 * index), then each parent's lines through theirs. Ties are broken by the parent and then the line's place,
 * so the walk needs no sort.
 */
export const CHAINS = {
  ticket_number: byTicket(tickets.ticket_number),
  invoice_number: byTicket(tickets.invoice_number),
  invoice_date: byTicket(tickets.invoice_date),
  customer: {
    from: sql`${raw("companies")} as ${raw("sale_customer")} cross join ${
      raw("tickets")
    } on ${tickets.customer_id} = ${customers.id} ${linesOf}`,
    order: [
      nocase(customers.name),
      sql`${customers.id}`,
      sql`${tickets.id}`,
      sql`${sales.order}`,
      sql`${sales.id}`,
    ],
    tickets: true,
  },
  serial_number: {
    from: sql`${raw("inventory")} cross join ${raw("sales")} on ${sales.inventory_id} = ${inventory.id}`,
    order: [nocase(inventory.serial_number), sql`${inventory.id}`, sql`${sales.id}`],
    tickets: false,
  },
  // Items by description, each item's stock rows as their index keeps them (shown before hidden, then by
  // serial), each row's lines. Ties were broken by the line's id alone, which sorted every line of an item
  // before its first (an item on thousands of lines: 29 ms for page 1 of the large tenant; decision 012a, the
  // figure is commit ba45bbb's).
  item_description: {
    from: sql`${raw("items")} cross join ${
      raw("inventory")
    } on ${inventory.item_id} = ${items.id} cross join ${
      raw("sales")
    } on ${sales.inventory_id} = ${inventory.id}`,
    order: [
      nocase(items.item_description),
      sql`${items.id}`,
      sql`${inventory.hidden}`,
      nocase(inventory.serial_number),
      sql`${inventory.id}`,
      sql`${sales.id}`,
    ],
    tickets: false,
  },
} satisfies Record<string, Walk>;

/**
 * Sorts on the ticket's optional rep, unit and product lines, in two walks: the lines whose ticket names
 * one (the named rows by name and id through their name index, each one's tickets through the ticket's
 * index on it, then the lines), and the lines whose ticket names none (tickets in id order, then their
 * lines). SQLite orders a null first ascending and last descending, so the nulls' walk comes first
 * ascending. Ties are broken as the other walks break them: the named row, the ticket, the line's place.
 */
function optional(table: string, as: string, named: { id: Column; name: Column }, key: Column) {
  const values: Walk = {
    from: sql`${raw(table)} as ${raw(as)} cross join ${raw("tickets")} on ${key} = ${named.id} ${linesOf}`,
    order: [nocase(named.name), sql`${named.id}`, sql`${tickets.id}`, sql`${sales.order}`, sql`${sales.id}`],
    tickets: true,
  };
  const nulls: Walk = {
    from: ticketsThenLines,
    order: [sql`${tickets.id}`, sql`${sales.order}`, sql`${sales.id}`],
    tickets: true,
    where: sql`${key} is null`,
  };
  // The page's order over the joined row: a missing name (and id) sorts as the nulls' walk does.
  return { values, nulls, order: values.order };
}
export const OPTIONAL = {
  business_unit: optional("categories", "sale_unit", units, tickets.business_unit_id),
  product_line: optional("categories", "sale_product_line", productLines, tickets.product_line_id),
  sub_product_line: optional("sub_categories", "sub_categories", sub_categories, tickets.sub_product_line_id),
  sales_rep: optional("users", "sale_rep", reps, tickets.sales_rep_id),
};
export type OptionalSort = keyof typeof OPTIONAL;
export const isOptionalSort = (s: string | undefined): s is OptionalSort =>
  s !== undefined && Object.hasOwn(OPTIONAL, s);

type Dir = typeof asc;

/** One walk's line ids in its order, every one (a download's walk: `idsInSteps`). */
export function walkQuery(walk: Walk, where: SQL | undefined, dir: Dir): SQL {
  return sql`select ${sales.id} as id from ${walk.from} where ${
    sql.join([walk.where ?? sql`1`, where ?? sql`1`], sql` and `)
  } order by ${sql.join(walk.order.map(dir), sql`, `)}`;
}

/** One walk's ids of a page: `limit` lines after `offset`. */
export async function walkIds(
  ctx: Ctx,
  walk: Walk,
  where: SQL | undefined,
  dir: Dir,
  limit: number,
  offset: number,
): Promise<number[]> {
  const query = walkQuery(walk, where, dir);
  const deep = await deepPageIds(ctx, query, limit, offset, DEEP_OFFSET.joined);
  if (deep) return deep;
  const rows = await ctx.db.all<{ id: number }>(sql`${query} limit ${limit} offset ${offset}`);
  return rows.map((r) => r.id);
}

/** The walks of a sort through the ticket's or stock's names, in the order of the list. */
export function walksOf(sortBy: keyof typeof CHAINS | OptionalSort, dir: Dir): Walk[] {
  if (!isOptionalSort(sortBy)) return [CHAINS[sortBy]];
  const { values, nulls } = OPTIONAL[sortBy];
  return dir === asc ? [nulls, values] : [values, nulls];
}

/**
 * A page of an optional sort: the first walk's lines from `offset`, then, when they end inside the page,
 * the second's. Where the first ended before the page began its size says where the second starts (a
 * count, cached like a list's total).
 */
export async function optionalIds(
  ctx: Ctx,
  sort: OptionalSort,
  where: SQL | undefined,
  dir: Dir,
  limit: number,
  offset: number,
): Promise<number[]> {
  const [first, second] = walksOf(sort, dir);
  const head = await walkIds(ctx, first, where, dir, limit, offset);
  if (head.length === limit) return head;
  const firstCount = head.length ? offset + head.length : await listTotal(
    ctx,
    ctx.db.select({ total: count() }).from(sql`${first.from}`).where(
      sql`${sql.join([first.where ?? sql`1`, where ?? sql`1`], sql` and `)}`,
    ),
  );
  const rest = await walkIds(ctx, second, where, dir, limit - head.length, Math.max(0, offset - firstCount));
  return [...head, ...rest];
}
