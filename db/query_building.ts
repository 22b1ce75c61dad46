/**
 * drizzle's SQL text building without its per-chunk cost (decision 031).
 *
 * drizzle-orm 0.45 turns a query into text with `SQL.prototype.buildQueryFromSourceParams`: for each chunk it
 * asks `is(chunk, StringChunk)`, `is(chunk, Name)`, `is(chunk, SQL)`, `is(chunk, Table)`, `is(chunk, Column)`,
 * ... in turn, where each `is` that does not match walks the chunk's class chain comparing `entityKind`s, then
 * wraps every chunk's text in an object and concatenates them all (`mergeQueries`) at every level. A page of
 * tickets builds six statements of a few hundred chunks each; a profile under load (2026-11-25) put this at
 * about a sixth of the server's thread.
 *
 * This replaces that method with the same walk over the chunks, in the same order of cases, appending to one
 * string and one parameter list. Each `is(x, Type)` becomes `x instanceof Type`: with the one copy of drizzle
 * the server loads they answer alike (`is` compares `entityKind`s only to recognise classes of another copy of
 * drizzle). Text, parameters, typings and the numbering of parameters are drizzle's own;
 * db/query_building_test.ts builds every statement of the app's main calls both ways and compares them.
 */
import { Column, Name, Param, Placeholder, SQL, StringChunk, Subquery, Table, View } from "drizzle-orm";
import { ViewBaseConfig } from "drizzle-orm";
import * as drizzleOrm from "drizzle-orm";
import { sql } from "drizzle-orm";
import {
  SQLiteDeleteBase,
  SQLiteDialect,
  SQLiteInsertBase,
  SQLiteSelectBase,
  SQLiteSelectQueryBuilderBase,
  SQLiteUpdateBase,
} from "drizzle-orm/sqlite-core";
import { RecurringCache } from "./recurring.ts";

interface BuildConfig {
  casing: { getColumnCasing(c: unknown): string };
  escapeName(name: string): string;
  escapeParam(n: number, value: unknown): string;
  escapeString(s: string): string;
  prepareTyping?: (encoder: unknown) => string;
  inlineParams?: boolean;
  paramStartIndex?: { value: number };
  invokeSource?: string;
}

interface Query {
  sql: string;
  params: unknown[];
  typings?: string[];
}

interface Out {
  sql: string;
  params: unknown[];
  typings: string[];
}

type Builder = (this: SQL, chunks: unknown[], config: BuildConfig) => Query;
const proto = SQL.prototype as unknown as {
  buildQueryFromSourceParams: Builder;
  mapInlineParam(chunk: unknown, config: BuildConfig): string;
};

/** drizzle's own builder, for the comparison test. */
export const drizzleBuild: Builder = proto.buildQueryFromSourceParams;

const isPgEnumSym = Symbol.for("drizzle:isPgEnum");
const IsAlias = Symbol.for("drizzle:IsAlias"); // drizzle-orm/table.js's, not in its types
const TableSchema = (Table as unknown as { Symbol: { Schema: symbol; Name: symbol } }).Symbol;

/**
 * Appends the chunks' text and parameters to out. `self` is the statement being built (drizzle reads its
 * `shouldInlineParams` at every level).
 */
function build(self: SQL, chunks: unknown[], cfg: BuildConfig, out: Out): void {
  const inlineParams = cfg.inlineParams ||
    (self as unknown as { shouldInlineParams: boolean }).shouldInlineParams;
  const paramStartIndex = cfg.paramStartIndex!;
  const { escapeName, escapeParam, prepareTyping, casing } = cfg;
  const config = inlineParams === cfg.inlineParams ? cfg : { ...cfg, inlineParams };
  for (const chunk of chunks) {
    if (chunk instanceof StringChunk) {
      const v = (chunk as unknown as { value: string[] }).value;
      out.sql += v.length === 1 ? v[0] : v.join("");
      continue;
    }
    if (chunk instanceof Name) {
      out.sql += escapeName((chunk as unknown as { value: string }).value);
      continue;
    }
    if (chunk === undefined) continue;
    if (Array.isArray(chunk)) {
      const list: unknown[] = [new StringChunk("(")];
      for (let i = 0; i < chunk.length; i++) {
        list.push(chunk[i]);
        if (i < chunk.length - 1) list.push(new StringChunk(", "));
      }
      list.push(new StringChunk(")"));
      build(self, list, config, out);
      continue;
    }
    if (chunk instanceof SQL) {
      const inner = chunk as unknown as { queryChunks: unknown[]; shouldInlineParams: boolean };
      build(
        self,
        inner.queryChunks,
        { ...config, inlineParams: inlineParams || inner.shouldInlineParams },
        out,
      );
      continue;
    }
    if (chunk instanceof Table) {
      const t = chunk as unknown as Record<symbol, string | boolean | undefined>;
      const schemaName = t[TableSchema.Schema];
      const tableName = t[TableSchema.Name] as string;
      out.sql += schemaName === undefined || t[IsAlias]
        ? escapeName(tableName)
        : escapeName(schemaName as string) + "." + escapeName(tableName);
      continue;
    }
    if (chunk instanceof Column) {
      const columnName = casing.getColumnCasing(chunk);
      if (cfg.invokeSource === "indexes") {
        out.sql += escapeName(columnName);
        continue;
      }
      const table = (chunk as unknown as { table: Record<symbol, string | boolean | undefined> }).table;
      const schemaName = table[TableSchema.Schema];
      out.sql += table[IsAlias] || schemaName === undefined
        ? escapeName(table[TableSchema.Name] as string) + "." + escapeName(columnName)
        : escapeName(schemaName as string) + "." + escapeName(table[TableSchema.Name] as string) + "." +
          escapeName(columnName);
      continue;
    }
    if (chunk instanceof View) {
      const c = (chunk as unknown as Record<symbol, { schema?: string; name: string; isAlias: boolean }>)[
        ViewBaseConfig as unknown as symbol
      ];
      out.sql += c.schema === undefined || c.isAlias
        ? escapeName(c.name)
        : escapeName(c.schema) + "." + escapeName(c.name);
      continue;
    }
    if (chunk instanceof Param) {
      const p = chunk as unknown as { value: unknown; encoder: { mapToDriverValue(v: unknown): unknown } };
      if (p.value instanceof Placeholder) {
        out.sql += escapeParam(paramStartIndex.value++, chunk);
        out.params.push(chunk);
        out.typings.push("none");
        continue;
      }
      const mapped = p.value === null ? null : p.encoder.mapToDriverValue(p.value);
      if (mapped instanceof SQL) {
        build(self, [mapped], config, out);
        continue;
      }
      if (inlineParams) {
        out.sql += proto.mapInlineParam.call(self, mapped, config);
        continue;
      }
      out.sql += escapeParam(paramStartIndex.value++, mapped);
      out.params.push(mapped);
      out.typings.push(prepareTyping ? prepareTyping(p.encoder) : "none");
      continue;
    }
    if (chunk instanceof Placeholder) {
      out.sql += escapeParam(paramStartIndex.value++, chunk);
      out.params.push(chunk);
      out.typings.push("none");
      continue;
    }
    if (
      chunk instanceof SQL.Aliased && (chunk as unknown as { fieldAlias?: string }).fieldAlias !== undefined
    ) {
      out.sql += escapeName((chunk as unknown as { fieldAlias: string }).fieldAlias);
      continue;
    }
    if (chunk instanceof Subquery) {
      const s = (chunk as unknown as { _: { isWith?: boolean; alias: string; sql: unknown } })._;
      if (s.isWith) {
        out.sql += escapeName(s.alias);
        continue;
      }
      build(self, [new StringChunk("("), s.sql, new StringChunk(") "), new Name(s.alias)], config, out);
      continue;
    }
    if (
      typeof chunk === "function" && isPgEnumSym in chunk &&
      (chunk as unknown as Record<symbol, unknown>)[isPgEnumSym] === true
    ) {
      const e = chunk as unknown as { schema?: string; enumName: string };
      out.sql += e.schema ? escapeName(e.schema) + "." + escapeName(e.enumName) : escapeName(e.enumName);
      continue;
    }
    const wrapper = chunk as { getSQL?: () => SQL; shouldOmitSQLParens?: () => boolean } | null;
    if (wrapper !== null && typeof wrapper?.getSQL === "function") {
      if (wrapper.shouldOmitSQLParens?.()) build(self, [wrapper.getSQL()], config, out);
      else build(self, [new StringChunk("("), wrapper.getSQL(), new StringChunk(")")], config, out);
      continue;
    }
    if (inlineParams) {
      out.sql += proto.mapInlineParam.call(self, chunk, config);
      continue;
    }
    out.sql += escapeParam(paramStartIndex.value++, chunk);
    out.params.push(chunk);
    out.typings.push("none");
  }
}

/** The replacement: drizzle's result, built in one pass. */
export function plannedBuild(this: SQL, chunks: unknown[], config: BuildConfig): Query {
  const cfg = { ...config, paramStartIndex: config.paramStartIndex || { value: 0 } };
  const out: Out = { sql: "", params: [], typings: [] };
  build(this, chunks, cfg, out);
  return out.typings.length ? out : { sql: out.sql, params: out.params };
}

/**
 * With DRIZZLE_SHADOW=1 (tests, never production) every statement is built both ways and a difference throws:
 * `DRIZZLE_SHADOW=1 deno test -A api/` checks this builder against every statement the suite makes.
 */
function shadowBuild(this: SQL, chunks: unknown[], config: BuildConfig): Query {
  const copy = () => ({
    ...config,
    paramStartIndex: config.paramStartIndex ? { value: config.paramStartIndex.value } : undefined,
  });
  const theirs = copy();
  proto.buildQueryFromSourceParams = drizzleBuild; // drizzle's recursion calls the method: its own, meanwhile
  let expected: Query;
  try {
    expected = drizzleBuild.call(this, chunks, theirs);
  } finally {
    proto.buildQueryFromSourceParams = shadowBuild;
  }
  const ours = copy();
  const got = plannedBuild.call(this, chunks, ours);
  assertSameQuery(got, expected, ours.paramStartIndex?.value, theirs.paramStartIndex?.value);
  if (config.paramStartIndex) config.paramStartIndex.value = ours.paramStartIndex!.value;
  return got;
}

export function assertSameQuery(got: Query, expected: Query, gotNext?: number, expectedNext?: number): void {
  const same = got.sql === expected.sql && got.params.length === expected.params.length &&
    got.params.every((p, i) => Object.is(p, expected.params[i])) &&
    JSON.stringify(got.typings) === JSON.stringify(expected.typings) && gotNext === expectedNext;
  if (!same) {
    throw new Error(
      `query building differs from drizzle's:\n ours ${JSON.stringify(got)}\n drizzle's ${
        JSON.stringify(expected)
      }`,
    );
  }
}

export const SHADOW = (() => {
  try {
    return Deno.env.get("DRIZZLE_SHADOW") === "1";
  } catch {
    return false; // no env permission
  }
})();

// ---- The select list ----------------------------------------------------------------------------

interface Dialect {
  casing: { getColumnCasing(c: unknown): string };
  escapeName(name: string): string;
  sqlToQuery(s: SQL): Query;
}
type SelectionBuilder = (this: Dialect, fields: SelectedField[], opts?: { isSingleTable?: boolean }) => SQL;
interface SelectedField {
  path: string[];
  field: unknown;
}
const dialectProto = SQLiteDialect.prototype as unknown as { buildSelection: SelectionBuilder };

/** drizzle's own `buildSelection`, for the comparison. */
export const drizzleSelection: SelectionBuilder = dialectProto.buildSelection;

/**
 * `SQLiteDialect.prototype.buildSelection` (the `select a, b, c` list): drizzle builds a `sql` template of three
 * names for every column, each chunk checked with `is(chunk, Table)` as it is made, after up to four failing
 * `is` checks on the field. Plain columns here become one text chunk of the same names, escaped by the same
 * dialect (`"table"."column"`, `cast(... as text)` for big integers); any other field (SQL, aliased SQL, a
 * subquery) is drizzle's own, built one field at a time. The statement's text is drizzle's.
 */
export function plannedSelection(
  this: Dialect,
  fields: SelectedField[],
  opts: { isSingleTable?: boolean } = {},
): SQL {
  const isSingleTable = opts.isSingleTable ?? false;
  // A list of `flatFields` never changes: its select list is built once (per dialect, with or without the
  // table names).
  if (!keptLists.has(fields)) return selectionOf.call(this, fields, isSingleTable);
  let kept = selections.get(fields);
  if (kept?.dialect !== this) selections.set(fields, kept = { dialect: this });
  const key = isSingleTable ? "single" : "joined";
  return kept[key] ??= selectionOf.call(this, fields, isSingleTable);
}

/** The lists `flatFields` keeps (those of fields that recur), and their select lists once built. */
const keptLists = new WeakSet<SelectedField[]>();
const selections = new WeakMap<SelectedField[], { dialect: Dialect; single?: SQL; joined?: SQL }>();

function selectionOf(this: Dialect, fields: SelectedField[], isSingleTable: boolean): SQL {
  const chunks: unknown[] = [];
  let text = "";
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i].field;
    if (field instanceof Column) {
      const col = field as unknown as { table: Record<symbol, string>; columnType: string };
      const name = this.escapeName(this.casing.getColumnCasing(field));
      const ref = isSingleTable ? name : this.escapeName(col.table[TableSchema.Name]) + "." + name;
      text += col.columnType === "SQLiteNumericBigInt" ? `cast(${ref} as text)` : ref;
    } else {
      if (text) chunks.push(new StringChunk(text));
      text = "";
      chunks.push(drizzleSelection.call(this, [fields[i]], { isSingleTable }));
    }
    if (i < fields.length - 1) text += ", ";
  }
  if (text) chunks.push(new StringChunk(text));
  return new SQL(chunks as ConstructorParameters<typeof SQL>[0]);
}

function shadowSelection(this: Dialect, fields: SelectedField[], opts?: { isSingleTable?: boolean }): SQL {
  const got = plannedSelection.call(this, fields, opts);
  assertSameQuery(this.sqlToQuery(got), this.sqlToQuery(drizzleSelection.call(this, fields, opts)));
  return got;
}

// ---- The select statement ------------------------------------------------------------------------

interface SelectConfig {
  withList?: unknown[];
  fields: Record<string, unknown>;
  fieldsFlat?: SelectedField[];
  where?: SQL;
  having?: SQL;
  table: unknown;
  joins?: { alias: string }[];
  orderBy?: unknown[];
  groupBy?: unknown[];
  limit?: unknown;
  offset?: unknown;
  distinct?: boolean;
  setOperators: unknown[];
}
interface SelectDialect extends Dialect {
  buildWithCTE(list?: unknown[]): SQL | undefined;
  buildSelection(fields: SelectedField[], opts: { isSingleTable: boolean }): SQL;
  buildFromTable(table: unknown): unknown;
  buildJoins(joins?: unknown[]): SQL | undefined;
  buildOrderBy(orderBy?: unknown[]): SQL | undefined;
  buildLimit(limit?: unknown): SQL | undefined;
  buildSetOperations(left: SQL, ops: unknown[]): SQL;
}
type SelectBuilder = (this: SelectDialect, config: SelectConfig) => SQL;
const selectProto = SQLiteDialect.prototype as unknown as { buildSelectQuery: SelectBuilder };

/** drizzle's own `buildSelectQuery`, for the comparison. */
export const drizzleSelectQuery: SelectBuilder = selectProto.buildSelectQuery;

const orderSelectedFields = (drizzleOrm as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): SelectedField[];
}).orderSelectedFields;
const TableName = Symbol.for("drizzle:Name");
const BaseName = Symbol.for("drizzle:BaseName");

/**
 * `SQLiteDialect.prototype.buildSelectQuery` with its check that every selected column's table is in the
 * query done once per statement: drizzle asks, for every column, which kind of thing the FROM is (three
 * failing `is` checks on the table each time) and walks the joins (a twentieth of a line save's thread). The
 * same error for a column whose table is missing; the rest of the statement is drizzle's own code.
 */
export function plannedSelectQuery(this: SelectDialect, config: SelectConfig): SQL {
  const {
    withList,
    fields,
    fieldsFlat,
    where,
    having,
    table,
    joins,
    orderBy,
    groupBy,
    limit,
    offset,
    distinct,
  } = config;
  const fieldsList = fieldsFlat ?? orderSelectedFields(fields);
  const t = table as Record<symbol, unknown> & { _: { alias: string } };
  const from = table instanceof Subquery ? t._.alias : table instanceof View // SQLiteViewBase, the only views of this dialect
    ? (t[ViewBaseConfig as unknown as symbol] as { name: string }).name
    : table instanceof SQL
    ? undefined
    : t[TableName];
  const joined = new Set(joins?.map((j) => j.alias));
  for (const f of fieldsList) {
    if (!(f.field instanceof Column)) continue;
    const col = f.field as unknown as { table: Record<symbol, unknown>; name: string };
    const tableName = col.table[TableName] as string;
    if (tableName === from) continue;
    if (joined.has((col.table[IsAlias] ? col.table[TableName] : col.table[BaseName]) as string)) continue;
    throw new Error(
      `Your "${
        f.path.join("->")
      }" field references a column "${tableName}"."${col.name}", but the table "${tableName}" is not part of the query! Did you forget to join it?`,
    );
  }
  const isSingleTable = !joins || joins.length === 0;
  const withSql = this.buildWithCTE(withList);
  const distinctSql = distinct ? sql` distinct` : undefined;
  const selection = this.buildSelection(fieldsList, { isSingleTable });
  const tableSql = this.buildFromTable(table);
  const joinsSql = this.buildJoins(joins);
  const whereSql = where ? sql` where ${where}` : undefined;
  const havingSql = having ? sql` having ${having}` : undefined;
  const groupByList: unknown[] = [];
  if (groupBy) {
    for (const [index, groupByValue] of groupBy.entries()) {
      groupByList.push(groupByValue);
      if (index < groupBy.length - 1) groupByList.push(sql`, `);
    }
  }
  const groupBySql = groupByList.length > 0
    ? sql` group by ${sql.join(groupByList as Parameters<typeof sql.join>[0])}`
    : undefined;
  const orderBySql = this.buildOrderBy(orderBy);
  const limitSql = this.buildLimit(limit);
  const offsetSql = offset ? sql` offset ${offset}` : undefined;
  const finalQuery =
    sql`${withSql}select${distinctSql} ${selection} from ${tableSql}${joinsSql}${whereSql}${groupBySql}${havingSql}${orderBySql}${limitSql}${offsetSql}`;
  if (config.setOperators.length > 0) return this.buildSetOperations(finalQuery, config.setOperators);
  return finalQuery;
}

function shadowSelectQuery(this: SelectDialect, config: SelectConfig): SQL {
  let expected: unknown;
  try {
    expected = this.sqlToQuery(drizzleSelectQuery.call(this, config));
  } catch (e) {
    expected = e instanceof Error ? e.message : e;
  }
  let got: unknown;
  let built: SQL | undefined;
  try {
    built = plannedSelectQuery.call(this, config);
    got = this.sqlToQuery(built);
  } catch (e) {
    got = e instanceof Error ? e.message : e;
  }
  if (typeof expected === "string" || typeof got === "string") {
    if (got !== expected) {
      throw new Error(`select building differs: ours ${String(got)}, drizzle's ${String(expected)}`);
    }
    throw new Error(got as string);
  }
  assertSameQuery(got as Query, expected as Query);
  return built!;
}

/** Builds every statement both ways from now on (on), or ours only. */
export function shadowQueryBuilding(on: boolean): void {
  proto.buildQueryFromSourceParams = on ? shadowBuild : plannedBuild;
  dialectProto.buildSelection = on ? shadowSelection : plannedSelection;
  selectProto.buildSelectQuery = on ? shadowSelectQuery : plannedSelectQuery;
  joinsProto.buildJoins = on ? shadowJoins : plannedJoins;
  checkFields = on;
}

// ---- LIMIT ----------------------------------------------------------------------------------------------

const limitProto = SQLiteDialect.prototype as unknown as { buildLimit(limit?: unknown): SQL | undefined };

/** drizzle's own `buildLimit`: ` limit ?` with the number as a parameter. */
const drizzleLimit = limitProto.buildLimit;

/**
 * A whole-number LIMIT written into the statement's text, where drizzle binds it as a parameter. SQLite's
 * planner reads a LIMIT only when it is a literal (it then plans and sorts for that many rows); a bound one
 * is unknown when the statement is prepared. On the bench (2026-11-27) the inventory page's statement ran in
 * 157 us with `limit 20` and 279 us with `limit ?` bound to 20, and page 1 at 10 connections went from 674
 * to 803 req/s (inventory) and 506 to 673 (Sales Data); decision 032. The OFFSET stays a parameter, so a
 * list's pages share one prepared statement per page size. Any other value (a placeholder, SQL, a number that
 * is not a whole one) is drizzle's.
 */
function literalLimit(this: unknown, limit?: unknown): SQL | undefined {
  if (typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 0) {
    return sql.raw(` limit ${limit}`);
  }
  return drizzleLimit.call(this, limit);
}
limitProto.buildLimit = literalLimit;

// ---- Joins -----------------------------------------------------------------------------------------------

interface Join {
  on?: unknown;
  table: unknown;
  joinType: string;
  alias?: string;
}
type JoinsBuilder = (this: unknown, joins?: Join[]) => SQL | undefined;
const joinsProto = SQLiteDialect.prototype as unknown as { buildJoins: JoinsBuilder };

/** drizzle's own `buildJoins`, for the comparison. */
export const drizzleJoins: JoinsBuilder = joinsProto.buildJoins;

/** Each join's text once built, by its condition (a module-level one is the same object at every run). */
const joinTexts = new RecurringCache<object, { table: unknown; key: string; sql: SQL }[]>();

/**
 * `SQLiteDialect.prototype.buildJoins` with each join built once per condition object: drizzle makes a `sql`
 * template of the join's type, table, alias and condition for every join of every statement (each chunk
 * checked with `is` as it is made). A join is drizzle's ` <type> join <table> [alias] on <condition>` text,
 * so the joins of a statement are the joins built one at a time, one after the other: the same text.
 */
function plannedJoins(this: unknown, joins?: Join[]): SQL | undefined {
  if (!joins || joins.length === 0) return undefined;
  const parts: SQL[] = [];
  for (const join of joins) {
    const on = join.on;
    if (!(on instanceof SQL)) {
      parts.push(drizzleJoins.call(this, [join])!);
      continue;
    }
    const key = `${join.joinType}\u0000${join.alias ?? ""}`;
    const built = joinTexts.get(on);
    let hit = built?.find((b) => b.table === join.table && b.key === key);
    if (!hit) {
      hit = { table: join.table, key, sql: drizzleJoins.call(this, [join])! };
      // Stored only for a condition that recurs (a module's), not one made for this statement (db/recurring.ts).
      if (!built) joinTexts.offer(on, [hit]);
      // One condition serves one join or a few (inner or left, under an alias): never a growing list.
      else if (built.length < 8) built.push(hit);
    }
    parts.push(hit.sql);
  }
  return parts.length === 1 ? parts[0] : sql.join(parts);
}

function shadowJoins(this: unknown, joins?: Join[]): SQL | undefined {
  const got = plannedJoins.call(this, joins);
  const expected = drizzleJoins.call(this, joins);
  const dialect = this as Dialect;
  if ((got === undefined) !== (expected === undefined)) throw new Error("joins differ from drizzle's");
  if (got && expected) assertSameQuery(dialect.sqlToQuery(got), dialect.sqlToQuery(expected));
  return got;
}

// ---- Selected fields ------------------------------------------------------------------------------------

/**
 * The selected fields in drizzle's flat order (`orderSelectedFields`), worked out once per fields object.
 * drizzle orders them anew each time a select runs (twice: to build the text and to map the rows, with four
 * `is` checks a field) and each time `returning()` is called. A query whose fields are one object kept by the
 * module (inventory's, Sales Data's, a whole table's columns) now reuses one list, and with it its compiled
 * row mapper (db/row_mapping.ts). The list is read, never changed, by drizzle and by this module.
 */
const flatByFields = new RecurringCache<object, SelectedField[]>();
function flatFields(fields: Record<string, unknown>): SelectedField[] {
  let flat = flatByFields.get(fields);
  if (!flat) {
    flat = orderSelectedFields(fields);
    // Kept (with its select list and row mapper) only for fields that recur: see db/recurring.ts.
    flatByFields.offer(fields, flat);
    if (flatByFields.has(fields)) keptLists.add(flat);
  }
  return flat;
}

interface SelectQuery {
  config: SelectConfig & { joins?: unknown[] };
  isPartialSelect: boolean;
  _: { selectedFields: Record<string, unknown> };
  dialect: { buildSelectQuery(config: SelectConfig): SQL; sqlToQuery(s: SQL): Query };
  session: Record<string, (...a: unknown[]) => { joinsNotNullableMap?: unknown }> | undefined;
  usedTables: Set<string>;
  cacheConfig: unknown;
  joinsNotNullableMap: unknown;
}

/**
 * A select's fields, flat: from the cache when they cannot change, that is when the caller chose them
 * (drizzle never adds to a partial select) or a whole table is selected without joins (a join on such a
 * select adds the joined table's columns to its fields).
 */
function selectFields(b: SelectQuery): SelectedField[] | undefined {
  if (!b.isPartialSelect && b.config.joins?.length) return undefined;
  const flat = flatFields(b._.selectedFields);
  if (checkFields) sameFields(flat, orderSelectedFields(b.config.fields));
  return flat;
}

/**
 * In shadow mode (tests), each cached list is checked against drizzle's ordering of the query's own fields.
 */
let checkFields = false;
function sameFields(cached: SelectedField[], fresh: SelectedField[]) {
  // A column of an aliased table is a new proxy at each reading: the same column of the same alias.
  const sameField = (a: unknown, b: unknown) =>
    a === b || (a instanceof Column && b instanceof Column && a.name === b.name &&
      a.constructor === b.constructor &&
      (a.table as unknown as Record<symbol, unknown>)[TableName] ===
        (b.table as unknown as Record<symbol, unknown>)[TableName]);
  const differs = cached.length !== fresh.length ||
    cached.some((f, i) =>
      !sameField(f.field, fresh[i].field) || f.path.join("\u0000") !== fresh[i].path.join("\u0000")
    );
  if (differs) throw new Error("selected fields differ from drizzle's ordering of the query's fields");
}

const selectQbProto = SQLiteSelectQueryBuilderBase.prototype as unknown as { getSQL(this: SelectQuery): SQL };
const selectBaseProto = SQLiteSelectBase.prototype as unknown as {
  _prepare(this: SelectQuery, isOneTimeQuery?: boolean): unknown;
};

/**
 * The statement of a select, built from these flat fields (`fieldsFlat`, which drizzle's builder honours).
 */
const selectSQL = (b: SelectQuery, fieldsFlat: SelectedField[] | undefined) =>
  b.dialect.buildSelectQuery(fieldsFlat ? { ...b.config, fieldsFlat } : b.config);

/** drizzle's `getSQL` of a select, with its flat fields from the cache. */
function plannedSelectGetSQL(this: SelectQuery): SQL {
  return selectSQL(this, selectFields(this));
}

/**
 * drizzle's `_prepare` of a select (drizzle-orm 0.45), its flat fields from the cache, and ordered once where
 * drizzle ordered them for the text and again for the rows.
 */
function plannedSelectPrepare(this: SelectQuery, isOneTimeQuery = true): unknown {
  if (!this.session) {
    throw new Error("Cannot execute a query on a query builder. Please use a database instance instead.");
  }
  const fieldsList = selectFields(this) ?? orderSelectedFields(this.config.fields);
  const query = this.session[isOneTimeQuery ? "prepareOneTimeQuery" : "prepareQuery"](
    this.dialect.sqlToQuery(selectSQL(this, fieldsList)),
    fieldsList,
    "all",
    true,
    undefined,
    { type: "select", tables: [...this.usedTables] },
    this.cacheConfig,
  );
  query.joinsNotNullableMap = this.joinsNotNullableMap;
  return query;
}
selectQbProto.getSQL = plannedSelectGetSQL;
selectBaseProto._prepare = plannedSelectPrepare;

/** `returning()` of inserts, updates and deletes, its fields from the cache (a whole table's by default). */
const Columns = (Table as unknown as { Symbol: { Columns: symbol } }).Symbol.Columns;
function cachedReturning(
  this: { config: { table: unknown; returning?: unknown } },
  fields?: Record<string, unknown>,
) {
  this.config.returning = flatFields(
    fields ?? (this.config.table as Record<symbol, Record<string, unknown>>)[Columns],
  );
  return this;
}
for (const builder of [SQLiteInsertBase, SQLiteUpdateBase, SQLiteDeleteBase]) {
  (builder.prototype as unknown as { returning: typeof cachedReturning }).returning = cachedReturning;
}

shadowQueryBuilding(SHADOW);
