/**
 * `column in (…)` over a list of any length as one statement text (decision 043).
 *
 * drizzle's `inArray(column, ids)` writes one placeholder per value, so every length of list is a statement
 * text of its own: a ticket of 4,000 lines read its logs through a statement with 4,000 placeholders, and
 * each line added or deleted made the next read prepare a new one. Each connection keeps its statements
 * (db/statement_cache.ts), and one over a 4,000-item list holds about 140 KB of SQLite's heap; a statement
 * dropped from the cache is freed only when V8 collects its wrapper, which it has no reason to hurry. Under
 * a mix of line saves and ticket reads the server's C heap grew from 32 MB to over 1 GB in three minutes.
 *
 * `inJson` binds the whole list as one JSON text and reads it back with SQLite's `json_each`: one text for
 * every length, prepared once per connection. SQLite runs `x in (select value from json_each(?))` as an
 * IN over a subquery (the list made into a temporary index once, the column's own index used as before), and
 * libSQL servers (sqld) have the same function. No list needs chunking for SQLite's variable limit either.
 */
import { Column, is, type SQL, sql, type SQLWrapper } from "drizzle-orm";

/** The list as the JSON text `json_each` reads: values through the column's own encoding (booleans, JSON, dates). */
export function jsonList(column: SQLWrapper, values: readonly unknown[]): string {
  const encoded = is(column, Column) ? values.map((v) => (column as Column).mapToDriverValue(v)) : values;
  return JSON.stringify(encoded);
}

/** `column in (values)`, one statement text whatever the list's length (an empty list matches nothing). */
export function inJson(column: SQLWrapper, values: readonly unknown[]): SQL {
  return sql`${column} in (select value from json_each(${jsonList(column, values)}))`;
}

/** `column not in (values)`, one statement text whatever the list's length (an empty list excludes nothing). */
export function notInJson(column: SQLWrapper, values: readonly unknown[]): SQL {
  return sql`${column} not in (select value from json_each(${jsonList(column, values)}))`;
}
