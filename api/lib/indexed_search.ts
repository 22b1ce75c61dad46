import { type Column, count, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Ctx } from "./context.ts";
import { likeContains, listTotal } from "./list_query.ts";

// Server-only (drizzle): kept apart from list_query.ts, whose schemas the islands import.

/** The trigram index reads three characters at a time: shorter terms can only be found by LIKE. */
export const FTS_MIN_CHARS = 3;

/**
 * A case-insensitive contains-search on `col`, through the FTS5 trigram index `fts` (an external-content
 * table whose rowid is `id`, with a column named like `col`) when the term is long enough: the term as a
 * quoted phrase matches any substring, and the LIKE still applies to the rows found, so the results are
 * exactly a LIKE's without a scan of every row. A shorter term is the LIKE alone.
 */
export function indexedContains(
  fts: "tickets_fts" | "jobs_fts",
  id: Column,
  col: Column,
  text: string | undefined,
): SQL | undefined {
  if (!text) return undefined;
  const like = sql`${col} like ${likeContains(text)} escape '\\'`;
  if ([...text].length < FTS_MIN_CHARS) return like;
  const phrase = `${col.name} : "${text.replaceAll('"', '""')}"`;
  const table = sql.raw(`"${fts}"`);
  return sql`${id} in (select rowid from ${table} where ${table} match ${phrase}) and ${like}`;
}

/**
 * The inventory ids whose serial contains `text` (case-insensitive, as LIKE is), through their suffix index
 * (migration 0020): the serials with a suffix that starts with the term, one range of
 * `inventory_serial_suffixes` as long as the matches. Any length of term. The index holds every suffix of
 * every serial (to its 1,000th character) folded as LIKE folds case (ASCII), kept in step by triggers, so the
 * range is the LIKE's answer exactly: no row is read to check it again (a Sales Data search read its 1,000
 * stock rows for that alone: 0.5 of its 0.9 ms, 2026-11-27).
 */
export function serialMatches(text: string): SQL {
  // SQLite's lower() and LIKE fold ASCII letters only; the index holds suffixes folded the same way.
  const from = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // Every string that starts with `from` sorts from it up to it followed by the last code point.
  const to = from + "\u{10FFFF}";
  return sql`select inventory_id from inventory_serial_suffixes where suffix >= ${from} and suffix < ${to}`;
}

/**
 * A case-insensitive contains-search on inventory serial numbers: `id` among the `serialMatches`. With `walk`,
 * the rows a walk in the page's order reads are checked instead (`walkFindsSoon`): by the LIKE alone where
 * the walk's index holds the serial ("serial"), else by their id among the matches ("ids", `+` keeps SQLite
 * from starting from them).
 */
export function serialContains(
  id: Column,
  col: Column,
  text: string | undefined,
  walk?: "serial" | "ids",
): SQL | undefined {
  if (!text) return undefined;
  // A walk checks each row it reads: the LIKE alone, on the serial its index already holds, costs less than
  // first listing every match ("7-01": 9,500 suffixes, 3.4 ms to list, 0.5 ms to walk with the LIKE;
  // decision 032).
  if (walk === "serial") return sql`${col} like ${likeContains(text)} escape '\\'`;
  return sql`${walk ? sql`+` : sql``}${id} in (${serialMatches(text)})`;
}

/**
 * Whether a page of a search is found sooner by walking the list in the page's order, checking each row
 * against the matches, than by reading every match and sorting them: the walk passes over about
 * `rows / matched` rows for each one it keeps, reading every match costs a few times more per row (its row,
 * its joins, the sort). A search matching few rows, or a deep page, reads the matches; a broad one walks
 * (inventory, "7-01" of 100,000 serials: 9,500 matches, 17 ms read and sorted, 2.7 ms walked; "99999": 1
 * match, 12 us read, 14 ms walked). Both counts are cached like a list's total.
 */
export async function walkFindsSoon(ctx: Ctx, table: SQLiteTable, matched: number, needed: number) {
  if (matched === 0) return false;
  const rows = await listTotal(ctx, ctx.db.select({ total: count() }).from(table));
  return needed * (rows / matched) <= 4 * matched;
}
