import { NativeSelect } from "../primitives/NativeSelect.tsx";
import { Icon } from "./icons.tsx";
import { NavLink } from "./NavLink.tsx";

export interface PageState {
  page: number;
  /** -1 = All */
  rowsPerPage: number;
}

/** The last page of `total` rows (1 when there are none, or with All). */
export const lastPage = ({ rowsPerPage }: PageState, total: number): number =>
  rowsPerPage === -1 ? 1 : Math.max(1, Math.ceil(total / rowsPerPage));

/** A page beyond the last one of a list that has rows (a hand-edited or old link, rows deleted since). */
export const pastEnd = (state: PageState, total: number): boolean =>
  total > 0 && state.page > lastPage(state, total);

/** '1-10 of 42' (All: every row on one page); a page past the end shows none of them. */
export function rangeText(state: PageState, total: number): string {
  const { page, rowsPerPage } = state;
  if (total === 0) return "0 of 0";
  if (rowsPerPage === -1) return `1-${total} of ${total}`;
  if (pastEnd(state, total)) return `0 of ${total}`;
  const from = (page - 1) * rowsPerPage + 1;
  return `${from}-${Math.min(page * rowsPerPage, total)} of ${total}`;
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
  const last = lastPage(state, total);
  const beyond = pastEnd(state, total);
  // Past the end, Previous goes to the last page that has rows, not to another empty one.
  const prev = { page: beyond ? last : page - 1, rowsPerPage };
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
      {beyond && (
        <NavLink className="link" href={href(prev)} onNavigate={() => onChange(prev)}>
          {`Go to the last page (${last})`}
        </NavLink>
      )}
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
