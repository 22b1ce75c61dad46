import { NativeSelect } from "../primitives/NativeSelect.tsx";
import { Icon } from "./icons.tsx";
import { NavLink } from "./NavLink.tsx";

export interface PageState {
  page: number;
  /** -1 = All */
  rowsPerPage: number;
}

/** '1-10 of 42' (All: every row on one page). */
export function rangeText({ page, rowsPerPage }: PageState, total: number): string {
  if (total === 0) return "0 of 0";
  if (rowsPerPage === -1) return `1-${total} of ${total}`;
  const from = (page - 1) * rowsPerPage + 1;
  return `${Math.min(from, total)}-${Math.min(page * rowsPerPage, total)} of ${total}`;
}

/**
 * Page size choice, the range shown and previous/next links that an island takes over. The size is a
 * native select: it loads with every list page, so it carries no react-aria code (decision 022).
 */
export function Pagination({ state, total, sizes, href, onChange, hydrated }: {
  state: PageState;
  total: number;
  sizes: readonly number[];
  href: (next: PageState) => string;
  onChange: (next: PageState) => void;
  hydrated: boolean;
}) {
  const { page, rowsPerPage } = state;
  const last = rowsPerPage === -1 ? 1 : Math.max(1, Math.ceil(total / rowsPerPage));
  const prev = { page: page - 1, rowsPerPage };
  const next = { page: page + 1, rowsPerPage };
  return (
    <nav className="pagination" aria-label="Pagination">
      <NativeSelect
        className="field page-size"
        label="Rows per page"
        options={sizes.map((n) => ({ id: String(n), label: n === -1 ? "All" : String(n) }))}
        value={String(rowsPerPage)}
        onChange={(v) => onChange({ page: 1, rowsPerPage: Number(v) })}
        isDisabled={!hydrated}
      />
      <span className="page-range">{rangeText(state, total)}</span>
      <NavLink
        className="icon-btn"
        label="Previous page"
        href={page > 1 ? href(prev) : null}
        onNavigate={() => onChange(prev)}
      >
        <Icon name="chevronLeft" />
      </NavLink>
      <NavLink
        className="icon-btn"
        label="Next page"
        href={page < last ? href(next) : null}
        onNavigate={() => onChange(next)}
      >
        <Icon name="chevronRight" />
      </NavLink>
    </nav>
  );
}
