/**
 * drizzle's row mapping, planned once per query instead of once per value (decision 031).
 *
 * drizzle-orm 0.45's libSQL session maps every row of a select with `mapResultRow`: for each value it asks
 * `is(field, Column)` (an `instanceof`, then a walk up the prototype chain for anything that is not a column),
 * picks the decoder, and first copies the row with `Array.prototype.slice(row).map(normalizeFieldValue)`. On a
 * 200-row page of Sales Data's eight joined tables that was a fifth of the server's thread (a profile of the
 * xlsx download, 2026-11-25: `is` 8.8%, the copy 8.5%, `mapResultRow` 1.7%).
 *
 * This replaces `mapAllResult` and `mapGetResult` of drizzle's `LibSQLPreparedQuery` with the same mapping,
 * planned from the query's selected fields once (each column's decoder, its path, the table a left join may
 * null out) and then applied to each row by index. The results are the same objects drizzle builds: the same
 * nesting, the same decoders (`mapFromDriverValue`), blobs as Buffer, a left-joined object null when its first
 * column is null and its table may be missing. Queries with a custom mapper (relational queries) and raw
 * queries without fields keep drizzle's own code. Rows of db/sqlite_client.ts are read from their values array
 * (`ROW_VALUES`), not through a getter per index. db/row_mapping_test.ts compares both on real rows.
 */
import { Column, getTableName, is, SQL } from "drizzle-orm";
import { Subquery } from "drizzle-orm";
import { LibSQLPreparedQuery } from "drizzle-orm/libsql/session";
import { Buffer } from "node:buffer";
import assert from "node:assert/strict";
import { ROW_VALUES } from "./sqlite_client.ts";
import { SHADOW } from "./query_building.ts";

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

const plans = new WeakMap<readonly SelectedField[], ColumnPlan[]>();

function planOf(fields: readonly SelectedField[]): ColumnPlan[] {
  let plan = plans.get(fields);
  if (plan) return plan;
  plan = fields.map(({ path, field }) => {
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
  plans.set(fields, plan);
  return plan;
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

/** drizzle's `mapResultRow`, on a plan. */
export function mapRow(
  plan: ColumnPlan[],
  input: ArrayLike<unknown>,
  joinsNotNullableMap: Record<string, boolean> | undefined,
): Record<string, unknown> {
  const row = valuesOf(input);
  const result: Record<string, unknown> = {};
  let nullify: Record<string, string | false> | undefined;
  for (let i = 0; i < plan.length; i++) {
    const c = plan[i];
    let node = result;
    for (let k = 0; k < c.parents.length; k++) {
      const p = c.parents[k];
      if (!(p in node)) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    const raw = normalized(row[i]);
    const value = node[c.key] = raw === null ? null : c.decoder.mapFromDriverValue(raw);
    if (joinsNotNullableMap && c.table !== undefined) {
      const objectName = c.parents[0];
      nullify ??= {};
      if (!(objectName in nullify)) nullify[objectName] = value === null ? c.table : false;
      else if (typeof nullify[objectName] === "string" && nullify[objectName] !== c.table) {
        nullify[objectName] = false;
      }
    }
  }
  if (joinsNotNullableMap && nullify) {
    for (const objectName in nullify) {
      const table = nullify[objectName];
      if (typeof table === "string" && !joinsNotNullableMap[table]) result[objectName] = null;
    }
  }
  return result;
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
  const plan = planOf(this.fields);
  const out = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = mapRow(plan, list[i], this.joinsNotNullableMap);
  return out;
}

export function plannedMapGet(this: PreparedQuery, rows: unknown, isFromBatch?: boolean): unknown {
  if (!this.fields || this.customResultMapper) return drizzleMapGet.call(this, rows, isFromBatch);
  const list = (isFromBatch ? (rows as { rows: ArrayLike<unknown>[] }).rows : rows) as ArrayLike<unknown>[];
  const row = list[0];
  if (!row) return undefined;
  return mapRow(planOf(this.fields), row, this.joinsNotNullableMap);
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
