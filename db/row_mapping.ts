/**
 * drizzle's row mapping, compiled once per shape of query instead of worked out per value (decisions 031,
 * 032).
 *
 * drizzle-orm 0.45's libSQL session maps every row of a select with `mapResultRow`: for each value it asks
 * `is(field, Column)` (an `instanceof`, then a walk up the prototype chain for anything that is not a column),
 * picks the decoder, and first copies the row with `Array.prototype.slice(row).map(normalizeFieldValue)`. On a
 * 200-row page of Sales Data's eight joined tables that was a fifth of the server's thread (a profile of the
 * xlsx download, 2026-11-25: `is` 8.8%, the copy 8.5%, `mapResultRow` 1.7%).
 *
 * This replaces `mapAllResult` and `mapGetResult` of drizzle's `LibSQLPreparedQuery` with the same mapping,
 * compiled once per shape of query (its selected fields) into a function that builds each row as nested
 * object literals (`compileMapper`): each column's decoder called only where it changes the value, the table
 * a left join may null out decided once. A planned loop over the values (each value's path walked, every
 * object grown key by key) took 160-200 us for a 20-row Sales Data page; the compiled function takes 5-7 us,
 * and Sales Data page 1 at 10 connections went from 1.57 to 1.35 ms of server CPU a request (2026-11-27,
 * decision 032). The results are the same objects drizzle builds: the same keys in the same order, the same
 * decoders (`mapFromDriverValue`), blobs as Buffer, a left-joined object null when its first column is null
 * and its table may be missing. Queries with a custom mapper (relational queries) and raw queries without
 * fields keep drizzle's own code. Rows of db/sqlite_client.ts are read from their values array
 * (`ROW_VALUES`), not through a getter per index. db/row_mapping_test.ts compares both on real rows.
 */
import { Column, getTableName, is, SQL } from "drizzle-orm";
import { Subquery } from "drizzle-orm";
import { LibSQLPreparedQuery } from "drizzle-orm/libsql/session";
import { Buffer } from "node:buffer";
import assert from "node:assert/strict";
import { ROW_VALUES } from "./sqlite_client.ts";
import { SHADOW } from "./query_building.ts";
import { RecurringCache } from "./recurring.ts";

interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

interface ColumnPlan {
  /** the objects above the value, outermost first */
  parents: string[];
  key: string;
  decoder: Decoder;
  /** set when the value is a column of a joined object (`{ customer: { name } }`): that column's table */
  table: string | undefined;
}

/** A row's mapper: the row's values in, drizzle's nested object out. */
type Mapper = (
  row: ArrayLike<unknown>,
  joinsNotNullableMap: Record<string, boolean> | undefined,
) => Record<string, unknown>;

/** Builds a mapper from its columns' decoders and the blob normaliser. */
type Factory = (decoders: Decoder[], normalize: (v: unknown) => unknown) => Mapper;

/**
 * Each query's mapper, by its fields, for fields that recur (a module's, a statement built once): drizzle builds
 * them anew for each statement it runs, and an entry per statement costs the young-generation collector
 * (db/recurring.ts).
 */
const mappers = new RecurringCache<readonly SelectedField[], Mapper>();
/** The compiled code, by what it depends on (`shapeOf`): compiled once per shape of query, not per run. */
const factories = new Map<string, Factory>();
/**
 * More shapes than the app's queries have; a query built with fields of its caller's choosing cannot grow it.
 */
const FACTORY_LIMIT = 1000;

function planOf(fields: readonly SelectedField[]): ColumnPlan[] {
  return fields.map(({ path, field }) => {
    const f = field as {
      decoder?: Decoder;
      _?: { sql: { decoder: Decoder } };
      sql?: { decoder: Decoder };
      table?: unknown;
    };
    const column = is(field, Column);
    const decoder = column
      ? field as unknown as Decoder
      : is(field, SQL)
      ? f.decoder!
      : is(field, Subquery)
      ? f._!.sql.decoder
      : f.sql!.decoder;
    return {
      parents: path.slice(0, -1),
      key: path[path.length - 1],
      decoder,
      table: column && path.length === 2
        ? getTableName(f.table as Parameters<typeof getTableName>[0])
        : undefined,
    };
  });
}

/** drizzle's `normalizeFieldValue`: a blob as a Buffer. */
function normalized(value: unknown): unknown {
  if (value instanceof ArrayBuffer && !(value instanceof Buffer)) return Buffer.from(value);
  return value;
}

/** A row's values by index: the array itself for rows of db/sqlite_client.ts, else the row. */
function valuesOf(row: ArrayLike<unknown>): ArrayLike<unknown> {
  const own = (row as { [ROW_VALUES]?: () => unknown[] })[ROW_VALUES];
  return own ? own.call(row) : row;
}

/** A decoder that hands the driver's value back as it is (drizzle's `Column` default): no call needed. */
const passThrough = (Column.prototype as unknown as Decoder).mapFromDriverValue;

interface Node {
  /** keys in the order drizzle first sets them, each a value's index or a nested object */
  entries: Map<string, number | Node>;
}

/**
 * drizzle's `mapResultRow` for one query's fields, compiled once into a function that builds the row as
 * nested object literals (one shape per query, where the general loop walked each value's path and made
 * every object a dictionary): the same keys in the same order, the same decoders, null for a value that is
 * null, a blob as a Buffer, and a left-joined object null when its first column is null and all its columns
 * are of that one table, a table the joins may leave out (`joinsNotNullableMap`). Keys are written with
 * JSON.stringify, so no name becomes code.
 */
function compileMapper(plan: ColumnPlan[]): Factory {
  const root: Node = { entries: new Map() };
  plan.forEach((c, i) => {
    let node = root;
    for (const p of c.parents) {
      let next = node.entries.get(p);
      if (typeof next !== "object") {
        // a key set to a value then used as an object: drizzle's `in` check keeps the value; not built here
        if (next !== undefined) throw new Error(`row mapping: "${p}" is both a value and an object`);
        next = { entries: new Map() };
        node.entries.set(p, next);
      }
      node = next;
    }
    // drizzle sets a repeated key twice: the last value wins, in the place of the first.
    node.entries.set(c.key, i);
  });
  const value = (i: number) => {
    const pass = passes(plan[i]);
    return `((x = v[${i}]) === null ? null : typeof x === "object" ? ${
      pass ? "N(x)" : `D[${i}].mapFromDriverValue(N(x))`
    } : ${pass ? "x" : `D[${i}].mapFromDriverValue(x)`})`;
  };
  const literal = (node: Node): string =>
    `{${
      [...node.entries].map(([k, e]) =>
        `${JSON.stringify(k)}: ${typeof e === "number" ? value(e) : literal(e)}`
      )
        .join(", ")
    }}`;
  // drizzle's nulling of a left join's object: decided by the object's first column of a table (path of
  // two), kept only while every such column of the object is of that same table.
  const firsts = new Map<string, { index: number; table: string; single: boolean }>();
  plan.forEach((c, i) => {
    if (c.table === undefined) return;
    const name = c.parents[0];
    const seen = firsts.get(name);
    if (!seen) firsts.set(name, { index: i, table: c.table, single: true });
    else if (seen.table !== c.table) seen.single = false;
  });
  const nulling = [...firsts].filter(([, f]) => f.single).map(([name, f]) =>
    `if (r[${JSON.stringify(name)}][${JSON.stringify(plan[f.index].key)}] === null && !nn[${
      JSON.stringify(f.table)
    }]) r[${JSON.stringify(name)}] = null;`
  );
  const body = `let x; const r = ${literal(root)};\n` +
    (nulling.length ? `if (nn) {\n${nulling.join("\n")}\n}\n` : "") + "return r;";
  return new Function("D", "N", `return (v, nn) => { ${body} };`) as Factory;
}

const passes = (c: ColumnPlan) => c.decoder.mapFromDriverValue === passThrough;

/**
 * All the compiled code depends on: each value's path, whether it is decoded, the table of a joined column.
 */
const shapeOf = (plan: ColumnPlan[]) =>
  plan.map((c) => `${c.parents.join("\u0000")}\u0000${c.key}\u0001${passes(c) ? "p" : "d"}${c.table ?? ""}`)
    .join("\u0002");

function mapperOf(fields: readonly SelectedField[]): Mapper {
  let mapper = mappers.get(fields);
  if (mapper) return mapper;
  const plan = planOf(fields);
  const shape = shapeOf(plan);
  let make = factories.get(shape);
  if (!make) {
    make = compileMapper(plan);
    if (factories.size >= FACTORY_LIMIT) factories.delete(factories.keys().next().value!);
    factories.set(shape, make);
  }
  mapper = make(plan.map((c) => c.decoder), normalized);
  mappers.offer(fields, mapper);
  return mapper;
}

export interface PreparedQuery {
  fields?: SelectedField[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

type MapResult = (this: PreparedQuery, rows: unknown, isFromBatch?: boolean) => unknown;
const proto = LibSQLPreparedQuery.prototype as unknown as {
  mapAllResult: MapResult;
  mapGetResult: MapResult;
};

/** drizzle's own mappers, for the comparison test. */
export const drizzleMapAll: MapResult = proto.mapAllResult;
export const drizzleMapGet: MapResult = proto.mapGetResult;

/** The planned mappers, installed by db/client.ts when it loads. */
export function plannedMapAll(this: PreparedQuery, rows: unknown, isFromBatch?: boolean): unknown {
  if (!this.fields || this.customResultMapper) return drizzleMapAll.call(this, rows, isFromBatch);
  const list = (isFromBatch ? (rows as { rows: ArrayLike<unknown>[] }).rows : rows) as ArrayLike<unknown>[];
  const map = mapperOf(this.fields);
  const out = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = map(valuesOf(list[i]), this.joinsNotNullableMap);
  return out;
}

export function plannedMapGet(this: PreparedQuery, rows: unknown, isFromBatch?: boolean): unknown {
  if (!this.fields || this.customResultMapper) return drizzleMapGet.call(this, rows, isFromBatch);
  const list = (isFromBatch ? (rows as { rows: ArrayLike<unknown>[] }).rows : rows) as ArrayLike<unknown>[];
  const row = list[0];
  if (!row) return undefined;
  return mapperOf(this.fields)(valuesOf(row), this.joinsNotNullableMap);
}

/** With DRIZZLE_SHADOW=1 (db/query_building.ts) every result is mapped both ways and a difference throws. */
function shadowMapAll(this: PreparedQuery, rows: unknown, isFromBatch?: boolean): unknown {
  const got = plannedMapAll.call(this, rows, isFromBatch);
  assert.deepStrictEqual(
    got,
    drizzleMapAll.call(this, rows, isFromBatch),
    "row mapping differs from drizzle's",
  );
  return got;
}
function shadowMapGet(this: PreparedQuery, rows: unknown, isFromBatch?: boolean): unknown {
  const got = plannedMapGet.call(this, rows, isFromBatch);
  assert.deepStrictEqual(
    got,
    drizzleMapGet.call(this, rows, isFromBatch),
    "row mapping differs from drizzle's",
  );
  return got;
}

/** Maps every result both ways from now on (on), or the planned way only. */
export function shadowRowMapping(on: boolean): void {
  proto.mapAllResult = on ? shadowMapAll : plannedMapAll;
  proto.mapGetResult = on ? shadowMapGet : plannedMapGet;
}

shadowRowMapping(SHADOW);
