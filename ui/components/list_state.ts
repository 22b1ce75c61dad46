import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../lib/api.ts";
import { showError } from "../lib/events.ts";

export interface ListResult<T> {
  results: T[];
  total: number;
}

export type ListParams = object;

/** The page's URL for a table state: links and the address bar carry page, size, sort and search. */
export function listHref(path: string, params: ListParams): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params) as [string, unknown][]) {
    if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

function withoutFirstRows<P extends ListParams>(query: P): P {
  if (!("firstRows" in query)) return query;
  const { firstRows: _, ...rest } = query as P & { firstRows?: number };
  return rest as P;
}

/** "All" chosen, and fewer rows came than the total. */
function isPartOfAll(query: ListParams, data: ListResult<unknown>): boolean {
  return (query as { rowsPerPage?: number }).rowsPerPage === -1 && data.results.length < data.total;
}

/**
 * A table's state in the browser: starts from the server's first page, keeps the URL in step
 * (replaceState) and refetches `endpoint` on every change or `refetch()`, aborting stale calls.
 */
export function useListState<P extends ListParams, T>(
  { path, endpoint, query: initialQuery, data: initialData, quiet }: {
    path: string;
    endpoint: string;
    query: P;
    data: ListResult<T>;
    /** The spec's user list shows no message when its fetch fails. */
    quiet?: boolean;
  },
) {
  // `firstRows`: the server rendered only the first rows of "All" (ui/lib/list_page.tsx); not a parameter.
  const [query, setQuery] = useState(() => withoutFirstRows(initialQuery));
  const [data, setData] = useState(initialData);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      // "All" came with its first rows only: fetch every row now.
      if (!isPartOfAll(query, initialData)) return;
    } else {
      history.replaceState(history.state, "", listHref(path, query));
    }
    const ac = new AbortController();
    setLoading(true);
    api<ListResult<T>>(endpoint, { query: query as Record<string, string>, signal: ac.signal })
      .then((d) => {
        // A delete can leave the page past the end: step back to the last page that has rows.
        const { page, rowsPerPage: size } = query as { page?: number; rowsPerPage?: number };
        if (d.results.length === 0 && d.total > 0 && page && page > 1 && size && size > 0) {
          setQuery((q) => ({ ...q, page: Math.ceil(d.total / size) }));
        }
        setData(d);
      })
      .catch((e) => {
        if ((e as Error).name === "AbortError") return;
        if (quiet) console.error("list fetch failed", endpoint, e);
        else showError(e);
      })
      .finally(() => {
        if (!ac.signal.aborted) setLoading(false);
      });
    return () => ac.abort();
  }, [query, version, path, endpoint, quiet]);

  const update = useCallback((patch: Partial<P>) => setQuery((q) => ({ ...q, ...patch })), []);
  const refetch = useCallback(() => setVersion((v) => v + 1), []);
  const href = (patch: Partial<P>) => listHref(path, { ...query, ...patch });
  return { query, data, loading, update, refetch, href };
}
