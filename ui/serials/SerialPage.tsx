import type { SerialHistory, SerialUnit } from "../../api/serials/schemas.ts";
import { eventText } from "../../api/serials/rules.ts";
import { Island } from "../lib/island.tsx";
import { useTimeZone } from "../lib/time_zone.tsx";
import { CellMore } from "../components/CellMore.tsx";
import { Icon } from "../components/icons.tsx";
import { rangeText } from "../components/Pagination.tsx";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { eventLinks } from "./links.ts";
import SerialDownload from "./islands/SerialDownload.tsx";

/** The page's state in its URL: `?page=2&rowsPerPage=25`. */
export interface SerialPageQuery {
  page: number;
  rowsPerPage: number;
}

/**
 * Another serial number: a GET form to /serials, which sends it on to that serial's page. `autoFocus` on the
 * empty search page, where the top bar's scan leads before the scripts (decision 056): a USB scanner types
 * straight into it.
 */
export function SerialSearch({ value = "", autoFocus = false }: { value?: string; autoFocus?: boolean }) {
  return (
    <form method="get" action="/serials" role="search" className="search-box">
      <div className="field">
        <label htmlFor="serial-search">Serial Number</label>
        <div className="search-control">
          <Icon name="search" size={20} />
          <input
            id="serial-search"
            type="search"
            name="serial"
            defaultValue={value}
            autoFocus={autoFocus}
            required
            maxLength={200}
          />
        </div>
      </div>
    </form>
  );
}

/** On a phone: Item Number, Location and Status; the item, its unit and the quantity under them. */
function UnitsTable({ units }: { units: SerialUnit[] }) {
  const hidden = new Set(["Item", "Business Unit", "Quantity"]);
  return (
    <div className="table-wrap serial-units">
      <table className="data narrowing" aria-label="Inventory rows">
        <thead>
          <tr>
            {["Item Number", "Item", "Business Unit", "Location", "Status", "Quantity"].map((h) => (
              <th key={h} scope="col" className={hidden.has(h) ? "col-more" : undefined}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {units.map((u) => (
            <tr key={u.id}>
              <td>
                {u.item_number}
                <CellMore>{u.item_description}</CellMore>
              </td>
              <td className="col-more">{u.item_description}</td>
              <td className="col-more">{u.business_unit}</td>
              <td>
                {u.location}
                <CellMore label="Business Unit">{u.business_unit}</CellMore>
              </td>
              <td>
                {u.status}
                {u.hidden && (
                  <>
                    {" "}
                    <span className="chip">Hidden</span>
                  </>
                )}
                <CellMore label="Quantity">{formatNumber(u.quantity)}</CellMore>
              </td>
              <td className="inv-num col-more">{formatNumber(u.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An instant as DateTime shows it, its day and its time each kept whole: a phone puts them on two lines. */
function When({ at, timeZone }: { at: string; timeZone: string }) {
  const [day, ...time] = formatDateTime(at, timeZone).split(" ");
  return (
    <time dateTime={at}>
      <span className="nowrap">{day}</span> <span className="nowrap">{time.join(" ")}</span>
    </time>
  );
}

/**
 * Newest first. On a phone: Date, What and Links; the kind of event goes above what happened and who did
 * it under it (decision 049's essential columns, without the tap: the page has no table island).
 */
function Timeline({ history }: { history: SerialHistory }) {
  const timeZone = useTimeZone();
  const hidden = new Set(["Kind", "Who"]);
  return (
    <div className="table-wrap">
      <table className="data serial-timeline narrowing" aria-label="History">
        <thead>
          <tr>
            {["Date", "Kind", "What", "Who", "Links"].map((h) => (
              <th key={h} scope="col" className={hidden.has(h) ? "col-more" : undefined}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {history.events.length === 0 && (
            <tr>
              <td className="empty" colSpan={5}>No more history: this page is past the last event.</td>
            </tr>
          )}
          {history.events.map((e) => {
            const text = eventText(e, timeZone);
            return (
              <tr key={`${e.kind}-${e.id}`}>
                <td className="cell-date">
                  <When at={e.at} timeZone={timeZone} />
                </td>
                <td className="col-more">{text.kind}</td>
                <td className="what">
                  <span className="cell-more cell-kind">{text.kind}</span>
                  {text.what}
                  {text.who && <CellMore>{`by ${text.who}`}</CellMore>}
                </td>
                <td className="col-more">{text.who}</td>
                <td className="serial-links cell-links">
                  {eventLinks(e).map((l) => <a key={l.href} href={l.href}>{l.label}</a>)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and next pages as links (the page has no table island: it works without JavaScript). */
function PageLinks({ query, total, href }: {
  query: SerialPageQuery;
  total: number;
  href: (page: number) => string;
}) {
  const last = Math.max(1, Math.ceil(total / query.rowsPerPage));
  const link = (page: number, label: string, icon: "chevronLeft" | "chevronRight", on: boolean) =>
    on
      ? (
        <a className="icon-btn" href={href(page)} aria-label={label} title={label}>
          <Icon name={icon} />
        </a>
      )
      : (
        <a className="icon-btn" role="link" aria-disabled="true" aria-label={label}>
          <Icon name={icon} />
        </a>
      );
  return (
    <nav className="pagination" aria-label="Pagination">
      <span className="page-range">{rangeText(query, total)}</span>
      {/* past the end, Previous goes to the last page with rows */}
      {link(Math.min(query.page - 1, last), "Previous page", "chevronLeft", query.page > 1)}
      {link(query.page + 1, "Next page", "chevronRight", query.page < last)}
    </nav>
  );
}

/**
 * One serial number's history: the inventory rows holding it, then every event the user may see on one
 * timeline, newest first, a page at a time. `history` undefined: nothing to show (`message` says why).
 */
export function SerialPage({ serial, history, query, message }: {
  serial: string;
  history?: SerialHistory;
  query: SerialPageQuery;
  message?: string;
}) {
  const href = (page: number) =>
    `/serials/${encodeURIComponent(serial)}?page=${page}&rowsPerPage=${query.rowsPerPage}`;
  return (
    <section className="page serial-page">
      <div className="page-head">
        <h1>{`Serial ${serial}`}</h1>
      </div>
      <div className="toolbar">
        <SerialSearch value={serial} />
        <span className="spacer" />
        {history && (
          <Island src="ui/serials/islands/SerialDownload.tsx" component={SerialDownload} props={{ serial }} />
        )}
      </div>
      {!history && <p className="serial-empty" role="status">{message}</p>}
      {history && history.units.length > 0 && <UnitsTable units={history.units} />}
      {history && <Timeline history={history} />}
      {history && <PageLinks query={query} total={history.total} href={href} />}
    </section>
  );
}
