import { Button } from "react-aria-components";
import { download } from "../lib/api.ts";
import { setLoading, showError } from "../lib/events.ts";
import type { RowDialogs } from "./CrudDialogs.tsx";
import { Icon } from "./icons.tsx";

type Query = Parameters<typeof download>[1];

/** The toolbar's button that opens the form for a new row; disabled until the island hydrates. */
export function NewButton<R>({ crud, label = "New" }: { crud: RowDialogs<R>; label?: string }) {
  return (
    <Button
      className="btn btn-primary"
      onPress={() => crud.setEditing(null)}
      isDisabled={!crud.hydrated}
    >
      <Icon name="add" size={20} />
      {label}
    </Button>
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
      await download(`${endpoint}/download`, { ...filters, page: 1, rowsPerPage: -1 } as Query);
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button className="btn" onPress={run} isDisabled={!crud.hydrated}>
      <Icon name="download" size={20} />Download
    </Button>
  );
}
