import { download } from "../lib/api.ts";
import { setLoading, showError } from "../lib/events.ts";
import type { RowDialogs } from "./CrudDialogs.tsx";
import { Icon } from "./icons.tsx";
import { preloadOn } from "../lib/lazy_dialog.tsx";

type Query = Parameters<typeof download>[1];

/**
 * The toolbar's button that opens the form for a new row; disabled until the island hydrates. The
 * form's code starts loading (`preload`, a lazyDialog's) when the pointer or focus reaches it.
 */
export function NewButton<R>({ crud, label = "New", preload }: {
  crud: RowDialogs<R>;
  label?: string;
  preload?: () => void;
}) {
  return (
    <button
      type="button"
      className="btn btn-primary"
      onClick={() => crud.setEditing(null)}
      disabled={!crud.hydrated}
      {...preloadOn(preload)}
    >
      <Icon name="add" size={20} />
      {label}
    </button>
  );
}

/**
 * The toolbar's Download: every row of the list (`<endpoint>/download` with the table's filters and
 * sort, no paging), behind the loading dialog; a failure shows the error.
 */
export function DownloadButton({ crud, endpoint }: {
  crud: { hydrated: boolean; list: { query: object } };
  endpoint: string;
}) {
  const run = async () => {
    setLoading(true);
    try {
      const { page: _p, rowsPerPage: _r, ...filters } = crud.list.query as Record<string, unknown>;
      // The spec's export call: every row is page -1.
      await download(`${endpoint}/download`, { ...filters, page: -1 } as Query);
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
    }
  };
  return (
    <button type="button" className="btn" onClick={run} disabled={!crud.hydrated}>
      <Icon name="download" size={20} />Download
    </button>
  );
}

/** The page head's Refresh: reads the list again with the table's state; disabled until hydrated. */
export function RefreshButton({ crud }: { crud: { hydrated: boolean; list: { refetch(): unknown } } }) {
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label="Refresh"
      disabled={!crud.hydrated}
      onClick={() => crud.list.refetch()}
    >
      <Icon name="refresh" />
    </button>
  );
}
