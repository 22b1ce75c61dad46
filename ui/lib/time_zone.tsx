import { createContext, useContext } from "react";
import {
  type DatePlace,
  DEFAULT_TIME_ZONE,
  formatDateTime,
  formatListDate,
  today,
} from "../../lib/format.ts";

/**
 * The company's time zone (settings.timeZone, decision 015) for everything on the page: the server's
 * Document provides it and writes it on <html data-time-zone>, ui/client.ts gives each island the same
 * value, so the server's HTML and the hydrated island show the same wall-clock time.
 */
export const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

export const useTimeZone = () => useContext(TimeZoneContext);

/**
 * Today on the company's clock as YYYY-MM-DD, the day a form's date field starts at: the browser's own
 * clock may be in another zone, or past midnight when the office's is not.
 */
export const useToday = () => today(new Date(), useTimeZone());

/**
 * A stored instant (UTC) on the company's clock: MM-DD-YY HH:mm in a list, MM-DD-YYYY HH:mm on a page (a
 * header, a detail page, a dialog's facts: decision 044); rendered on the server too.
 */
export function DateTime({ value, place = "list" }: { value: string | null | undefined; place?: DatePlace }) {
  const timeZone = useTimeZone();
  if (!value) return null;
  return <time dateTime={value}>{formatDateTime(value, timeZone, place)}</time>;
}

/**
 * The day of a stored instant (UTC) on the company's clock, as the sales lists show days (MM-DD-YY): the day
 * the date filters count it on. Rendered on the server too.
 */
export function Day({ value }: { value: string | null | undefined }) {
  const timeZone = useTimeZone();
  if (!value) return null;
  return <time dateTime={value}>{formatListDate(value, timeZone)}</time>;
}
