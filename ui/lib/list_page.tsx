import type { Context, Handler } from "hono";
import type { ReactElement } from "react";
import type { z } from "zod";
import { type AppEnv, type Ctx, ctxOf, type CurrentUser } from "../../api/lib/context.ts";
import { renderShellPage } from "../render.tsx";

/**
 * A list page's URL query, parsed leniently (the API parses strictly): each parameter the schema
 * rejects is dropped and falls back to its default, so a hand-edited `?page=abc` still renders.
 */
export function lenientQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.infer<S> {
  const kept: Record<string, string> = {};
  for (const [key, value] of params) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (field && field.safeParse(value).success) kept[key] = value;
  }
  const parsed = schema.safeParse(kept);
  return parsed.success ? parsed.data : schema.parse({});
}

type Sort = { by: string; descending: boolean };
/** The columns the API sorts by (its schema's `sortBy`). */
type SortKey<S extends z.ZodObject> = z.infer<S> extends { sortBy?: infer K } ? NonNullable<K> : string;

/** How a list page's table starts: the page sizes it offers, its default size and order, its filters. */
export interface TableDef<S extends z.ZodObject, F extends keyof z.infer<S>, O extends Sort | undefined> {
  schema: S;
  sizes: readonly number[];
  size: number;
  /** The default order; absent: the API's own order until a column header is chosen. */
  sort?: O & { by: SortKey<S> };
  /** The URL's filters the table keeps (those with a value), in this order. */
  filters?: readonly F[];
}

/** The table's state as the island holds it in the URL: page, size, sort, then the filters set. */
export type TableState<S extends z.ZodObject, F extends keyof z.infer<S>, O extends Sort | undefined> =
  & { page: number; rowsPerPage: number; firstRows?: number }
  & (O extends Sort ? { sortBy: SortKey<S>; descending: boolean }
    : { sortBy?: SortKey<S>; descending?: boolean })
  & Partial<Pick<z.infer<S>, F>>;

/**
 * The table's state from the URL, leniently: a size the page does not offer is its default size, an
 * order not given is the default order (or none), and only the listed filters with a value are kept.
 * `q` is the whole parse, for what a page reads beyond the table (the API's other parameters).
 */
export function tableState<
  S extends z.ZodObject,
  F extends keyof z.infer<S> = never,
  O extends Sort | undefined = undefined,
>(
  def: TableDef<S, F, O>,
  params: URLSearchParams,
): { q: z.infer<S>; table: TableState<S, F, O> } {
  const q = lenientQuery(def.schema, params) as z.infer<S> & { page: number; rowsPerPage: number };
  const { sortBy, descending } = q as { sortBy?: string; descending?: boolean };
  const table: Record<string, unknown> = {
    // page -1 asks the API for every row (a download); a page of a list is page 1 onwards
    page: q.page === -1 ? 1 : q.page,
    rowsPerPage: def.sizes.includes(Number(params.get("rowsPerPage"))) ? q.rowsPerPage : def.size,
    ...(def.sort
      ? { sortBy: sortBy ?? def.sort.by, descending: descending ?? def.sort.descending }
      : sortBy
      ? { sortBy, descending: descending ?? false }
      : {}),
  };
  return { q, table: { ...table, ...pickFilters(q, def.filters ?? []) } as TableState<S, F, O> };
}

/** The filters among `keys` that have a value, in the order of `keys` (the order of the URL). */
export function pickFilters<Q extends object, K extends keyof Q>(
  q: Q,
  keys: readonly K[],
): Partial<Pick<Q, K>> {
  const kept: Partial<Pick<Q, K>> = {};
  for (const key of keys) if (q[key]) kept[key] = q[key];
  return kept;
}

/** What a list page's `render` is given: the request, its user and service context, and the table. */
export interface ListPageArgs<S extends z.ZodObject, F extends keyof z.infer<S>, O extends Sort | undefined> {
  c: Context<AppEnv>;
  user: CurrentUser;
  ctx: Ctx;
  q: z.infer<S>;
  table: TableState<S, F, O>;
}

/**
 * Rows a server-rendered page shows when "All" is chosen. Every row of a large list, read, rendered and sent
 * twice (HTML and the island's props) in one turn, would hold the thread that every tenant shares for seconds.
 */
export const FIRST_ROWS_OF_ALL = 200;

/**
 * A list page's GET handler, the one way list pages are built: the table's state from the URL
 * (`tableState`), then `render` calls the list's service for the first page and returns the page's
 * element (or a response of its own, such as a redirect), streamed inside the shell under `title`.
 * Who may see the page is the page guard's business (ui/lib/page_guard.ts), not the handler's.
 */
export function listPage<
  S extends z.ZodObject,
  F extends keyof z.infer<S> = never,
  O extends Sort | undefined = undefined,
>(
  def: TableDef<S, F, O> & {
    title: string;
    /** A page whose schema depends on the URL (the inventory's view) picks it here. */
    schemaOf?: (params: URLSearchParams) => S;
    render: (args: ListPageArgs<S, F, O>) => Promise<ReactElement | Response>;
  },
): Handler<AppEnv> {
  return async (c) => {
    const params = new URL(c.req.url).searchParams;
    const schema = def.schemaOf?.(params) ?? def.schema;
    const { q, table } = tableState({ ...def, schema }, params);
    // "All" renders its first rows only; the island fetches the rest from the API, which streams them.
    if (table.rowsPerPage === -1) table.firstRows = FIRST_ROWS_OF_ALL;
    const user = c.get("user")!;
    const body = await def.render({ c, user, ctx: ctxOf(c), q, table });
    return body instanceof Response ? body : renderShellPage(c, def.title, body);
  };
}
