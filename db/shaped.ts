/**
 * A statement whose text is built once per process and run on any drizzle of its kind: a tenant's, or a
 * write transaction's.
 *
 * drizzle's own `.prepare()` binds the statement to the database it was made on, so a transaction (a new
 * drizzle for each) cannot use one made before it; and building a statement anew (its builder objects, its
 * condition trees, their text) costs more than running it does when it reads one row by its key. The
 * statements a line save runs inside its write group (its ticket, its stock row, the bookings due) were built
 * on every save: a profile under load (2026-11-27) put drizzle's building at a sixth of the thread.
 *
 * `shaped(build)` builds the statement once, with `sql.placeholder(name)` where its values go, and keeps
 * drizzle's built query (text, parameters with their placeholders, the fields its rows map to). Each run
 * hands that to the given drizzle's session (`prepareQuery`, which builds nothing), whose prepared query fills
 * the placeholders, runs the text on that session's connection (the transaction's, inside one) and maps the
 * rows as drizzle would. The text and the rows are drizzle's own; db/shaped_test.ts compares them with the
 * statement built the usual way, in and out of a transaction.
 */
import { and, type Column, getTableName, type SQL, sql, Table } from "drizzle-orm";
import type { TenantDatabase, Tx } from "./client.ts";

/** What drizzle's `_prepare` answers, as far as it is used here (drizzle-orm 0.45's SQLitePreparedQuery). */
interface Prepared {
  query: { sql: string; params: unknown[] };
  fields?: unknown;
  executeMethod: string;
  _isResponseInArrayMode?: boolean;
  customResultMapper?: unknown;
  joinsNotNullableMap?: unknown;
  all(values?: Values): Promise<unknown>;
  get(values?: Values): Promise<unknown>;
}
interface Session {
  prepareQuery(
    query: Prepared["query"],
    fields: unknown,
    executeMethod: string,
    isResponseInArrayMode: boolean | undefined,
    customResultMapper: unknown,
  ): Prepared;
}

/** A drizzle query builder that answers rows: a select, or an insert, update or delete with `returning`. */
interface Runnable {
  all(): Promise<unknown>;
  get(): Promise<unknown>;
}

type Db = TenantDatabase | Tx;

/** Values by placeholder name. */
type Values = Record<string, unknown>;

export interface Shaped<Q extends Runnable> {
  /** The rows, as the builder's `.all()` would answer them. */
  all(db: Db, values?: Values): ReturnType<Q["all"]>;
  /** The first row or undefined, as the builder's `.get()` would answer it. */
  get(db: Db, values?: Values): ReturnType<Q["get"]>;
}

/**
 * The statement `build` makes, built once (on the first drizzle it runs on) and run on each with `values` in
 * its placeholders. `build` must make the same statement whatever drizzle it is given: everything that varies
 * is a `sql.placeholder`.
 */
export function shaped<Q extends Runnable>(build: (db: TenantDatabase) => Q): Shaped<Q> {
  let made: Prepared | undefined;
  const on = (db: Db): Prepared => {
    made ??= (build(db as TenantDatabase) as unknown as { _prepare(oneTime: boolean): Prepared })._prepare(
      false,
    );
    const session = (db as unknown as { session: Session }).session;
    const p = session.prepareQuery(
      made.query,
      made.fields,
      made.executeMethod,
      made._isResponseInArrayMode,
      made.customResultMapper,
    );
    p.joinsNotNullableMap = made.joinsNotNullableMap;
    return p;
  };
  return {
    all: (db, values) => on(db).all(values) as ReturnType<Q["all"]>,
    get: (db, values) => on(db).get(values) as ReturnType<Q["get"]>,
  };
}

/**
 * `query`, a select from one table with its joins, read for the ids given as one JSON array in the placeholder
 * `ids`: `from json_each(:ids) as "wanted" cross join <table> <its joins> where <key> = "wanted"."value"`.
 * One statement text for any number of ids (a list of parameters makes a text, and a statement to prepare,
 * for each count), and one plan: the array drives (SQLite never reorders a CROSS JOIN), each row is read by
 * its key. With `key in (select value from json_each(?))` the planner guessed the array's size: on small
 * tables it read them whole, and once began from the companies' name index (seen in the jobs' plan test).
 * The query's own builder is changed and returned: its typings (the row it answers) stay as they were.
 */
export function drivenByIds<Q>(query: Q, key: Column): Q {
  const config = (query as unknown as {
    config: { table: unknown; joins?: unknown[]; where?: SQL };
  }).config;
  const table = config.table;
  if (!(table instanceof Table)) throw new Error("drivenByIds: the query must select from a table");
  config.joins = [
    { on: undefined, table, joinType: "cross", alias: getTableName(table) },
    ...(config.joins ?? []),
  ];
  config.table = sql`json_each(${sql.placeholder("ids")}) as "wanted"`;
  config.where = and(sql`${key} = "wanted"."value"`, config.where);
  return query;
}

/** The `ids` of a `drivenByIds` statement: each once (one given twice would read its rows twice: a join, not IN). */
export const idsValue = (ids: number[]): Values => ({ ids: JSON.stringify([...new Set(ids)]) });

/** The rows read by a `drivenByIds` statement, in the order of the ids (a page's ids come in the page's order). */
export async function rowsInIdOrder<R>(
  query: { all(db: Db, values?: Values): Promise<R[]> },
  db: Db,
  ids: number[],
  idOf: (row: R) => number,
): Promise<R[]> {
  if (!ids.length) return [];
  return inIdOrder(await query.all(db, idsValue(ids)), ids, idOf);
}

/**
 * `rows` sorted in place into the order of `ids` by each one's id (`idOf`). The sort is stable: rows of the same
 * id keep the order they came in.
 */
export function inIdOrder<R>(rows: R[], ids: number[], idOf: (row: R) => number): R[] {
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(idOf(a))! - at.get(idOf(b))!);
}
