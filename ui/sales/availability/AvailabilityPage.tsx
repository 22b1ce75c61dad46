import type { AvailabilityDay, AvailabilityOut } from "../../../api/sales/availability/schemas.ts";
import { formatDate, formatDateTime } from "../../../lib/format.ts";
import { CellMore } from "../../components/CellMore.tsx";
import { Icon } from "../../components/icons.tsx";
import { monthTitle, shiftMonth, WEEKDAYS, weeksOf } from "./month.ts";

export interface AvailabilityProps {
  data: AvailabilityOut;
  units: { id: number; name: string }[];
  month: string;
  /** the day whose bookings are listed */
  day: string;
  today: string;
}

/** The page's URL with these parameters (links keep the item and unit). */
function href(data: AvailabilityOut, month: string, day?: string) {
  const q = new URLSearchParams({
    item_id: String(data.item.id),
    business_unit: String(data.business_unit.id),
    month,
  });
  if (day) q.set("day", day);
  return `/sales/availability?${q}`;
}

/** all: every unit free; some: part booked; none: nothing free (or booked beyond the stock). */
function level(d: AvailabilityDay, capacity: number): "all" | "some" | "none" {
  return d.free <= 0 ? "none" : d.free >= capacity ? "all" : "some";
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * /sales/availability: an item's month in one business unit. Each day is a link (keyboard reachable,
 * no script) coloured by what is free, and the chosen day's bookings are listed below.
 */
export function AvailabilityPage({ data, units, month, day, today }: AvailabilityProps) {
  const capacity = data.rows.reduce((s, r) => s + r.quantity - r.quantity_out_location, 0);
  const byDate = new Map(data.days.map((d) => [d.date, d]));
  const chosen = byDate.get(day);
  const bookings = new Map(data.bookings.map((b) => [b.line_id, b]));
  return (
    <section className="page availability">
      <div className="page-head">
        <h1>{`Availability: ${data.item.item_number}`}</h1>
      </div>
      <p className="page-intro">
        {data.item.item_description} in {data.business_unit.name}: {plural(data.rows.length, "row")},{" "}
        {capacity} to rent (owned less at named locations).
      </p>
      <form className="toolbar" method="get" action="/sales/availability">
        <input type="hidden" name="item_id" value={data.item.id} />
        <div className="field">
          <label htmlFor="availability-unit">Business Unit</label>
          <select id="availability-unit" name="business_unit" defaultValue={data.business_unit.id}>
            {units.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="availability-month">Month</label>
          <input id="availability-month" type="month" name="month" defaultValue={month} required />
        </div>
        <button type="submit" className="btn">Show</button>
      </form>
      <nav className="calendar-nav" aria-label="Months">
        <a className="btn" href={href(data, shiftMonth(month, -1))}>
          <Icon name="chevronLeft" size={18} />Previous month
        </a>
        <h2>{monthTitle(month)}</h2>
        <a className="btn" href={href(data, shiftMonth(month, 1))}>
          Next month<Icon name="chevronRight" size={18} />
        </a>
      </nav>
      <table className="calendar">
        <caption className="sr-only">Free to rent each day of {monthTitle(month)}</caption>
        <thead>
          <tr>{WEEKDAYS.map((w) => <th key={w} scope="col">{w}</th>)}</tr>
        </thead>
        <tbody>
          {weeksOf(data.days.map((d) => d.date)).map((week, i) => (
            <tr key={i}>
              {week.map((date, j) => {
                const d = date ? byDate.get(date) : undefined;
                if (!d) return <td key={j} className="calendar-pad" />;
                const label = `${formatDate(d.date)}: ${d.free} of ${capacity} free, ${
                  plural(d.bookings.length, "booking")
                }`;
                return (
                  <td key={j} className={`calendar-day calendar-${level(d, capacity)}`}>
                    <a
                      href={href(data, month, d.date)}
                      aria-label={label}
                      aria-current={d.date === day ? "date" : undefined}
                      className={d.date === today ? "calendar-today" : undefined}
                    >
                      <span className="calendar-date">{Number(d.date.slice(8))}</span>
                      <span className="calendar-free">
                        {d.free}
                        <span className="calendar-word">free</span>
                      </span>
                      {d.bookings.length > 0 && <span className="calendar-count">{d.bookings.length}</span>}
                    </a>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="calendar-legend">
        <span className="calendar-key calendar-all">All free</span>
        <span className="calendar-key calendar-some">Partly booked</span>
        <span className="calendar-key calendar-none">None free</span>
      </p>
      {data.truncated && (
        <p className="field-error">More bookings than one page shows: figures are partial.</p>
      )}
      <h2 id="day-bookings">Bookings on {formatDate(day)}</h2>
      {/* On a phone: Ticket #, Serial # and Start, with State, Quantity and End under them. */}
      <div className="table-wrap">
        <table className="data narrowing" aria-labelledby="day-bookings">
          <thead>
            <tr>
              <th scope="col">Ticket #</th>
              <th scope="col">Serial #</th>
              <th scope="col">Start</th>
              <th scope="col" className="col-more">End</th>
              <th scope="col" className="col-more">Quantity</th>
              <th scope="col" className="col-more">State</th>
            </tr>
          </thead>
          <tbody>
            {!chosen?.bookings.length && (
              <tr>
                <td className="empty" colSpan={6}>No bookings on this day</td>
              </tr>
            )}
            {chosen?.bookings.map((id) => bookings.get(id)!).map((b) => {
              const end = b.end_date ? formatDateTime(b.end_date, data.time_zone) : "Until returned";
              const state = b.pending ? "Booked" : "Out";
              return (
                <tr key={b.line_id}>
                  <td className="cell-links">
                    <a href={`/sales/tickets/${b.ticket_id}`}>{b.ticket_number}</a>
                    <CellMore label="State">{state}</CellMore>
                  </td>
                  <td>
                    {b.serial_number}
                    <CellMore label="Quantity">{b.quantity}</CellMore>
                  </td>
                  <td>
                    {formatDateTime(b.start_date, data.time_zone)}
                    <CellMore label="End">{end}</CellMore>
                  </td>
                  <td className="col-more">{end}</td>
                  <td className="col-more">{b.quantity}</td>
                  <td className="col-more">{state}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** No item chosen: where to open the calendar from. */
export function NoItem() {
  return (
    <section className="page availability">
      <div className="page-head">
        <h1>Availability</h1>
      </div>
      <p className="page-intro">
        Open the calendar of an item from <a href="/sales/items">Items</a>{" "}
        (a row's Availability) or from the menu of a row of{" "}
        <a href="/sales/serialized-inventory">Serialized Inventory</a> or{" "}
        <a href="/sales/itemized-inventory">Itemized Inventory</a>.
      </p>
    </section>
  );
}
