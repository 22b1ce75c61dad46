import { type MouseEvent, useId } from "react";
import { Icon } from "./icons.tsx";
import type { SortState } from "./DataTable.tsx";

/**
 * "Sort by" a column and the direction, for a narrow table (a phone) whose hidden columns took their
 * header sort links with them (styles.css, "Narrow tables", shows it under 600 px only). It drives the
 * same `onSort` and `sortHref` as the headers.
 *
 * Before the island hydrates (or without JavaScript) it is a GET form: the select names the column, and
 * the Ascending and Descending buttons submit it with their direction; the list's other parameters
 * (searches, page size) are hidden fields read from the URL `sortHref` makes, so the server gets what a
 * header link would have sent. Hydrated, a new column sorts at once, ascending as a header's first tap
 * does, and the buttons sort without loading the page.
 */
export function SortControl({ columns, sort, sortHref, onSort }: {
  /** the sortable columns, in the table's order */
  columns: { id: string; header: string }[];
  sort: SortState;
  sortHref: (next: Required<SortState>) => string;
  onSort: (next: Required<SortState>) => void;
}) {
  const id = useId();
  const by = columns.some((c) => c.id === sort.sortBy) ? sort.sortBy! : "";
  const descending = !!sort.descending;
  // Every parameter but the sort's, as a header link would send them (page 1 included).
  const target = sortHref({ sortBy: columns[0].id, descending: false });
  const q = target.indexOf("?");
  const action = q < 0 ? target : target.slice(0, q);
  const keep = [...new URLSearchParams(q < 0 ? "" : target.slice(q + 1))].filter(
    ([k]) => k !== "sortBy" && k !== "descending",
  );
  const direction = (down: boolean) => (e: MouseEvent<HTMLButtonElement>) => {
    // Hydrated, the list sorts in place; with no column chosen (the list's default order) a direction means
    // nothing, and the page is not sent for again. Before hydration the form goes to the server as it is.
    e.preventDefault();
    const column = e.currentTarget.form?.elements.namedItem("sortBy") as HTMLSelectElement | null;
    if (column?.value) onSort({ sortBy: column.value, descending: down });
  };
  return (
    <form className="sort-bar" method="get" action={action}>
      {keep.map(([k, v], i) => <input key={i} type="hidden" name={k} value={v} />)}
      <label htmlFor={id}>Sort by</label>
      <select
        id={id}
        name="sortBy"
        value={by}
        onChange={(e) => e.target.value && onSort({ sortBy: e.target.value, descending: false })}
      >
        {!by && <option value="">Default order</option>}
        {columns.map((c) => <option key={c.id} value={c.id}>{c.header}</option>)}
      </select>
      <span className="sort-direction" role="group" aria-label="Direction">
        {[false, true].map((down) => {
          const label = down ? "Descending" : "Ascending";
          return (
            <button
              key={label}
              type="submit"
              name="descending"
              value={String(down)}
              className="icon-btn"
              aria-label={label}
              title={label}
              aria-pressed={!!by && descending === down}
              onClick={direction(down)}
            >
              <Icon name={down ? "arrowDown" : "arrowUp"} size={20} />
            </button>
          );
        })}
      </span>
    </form>
  );
}
