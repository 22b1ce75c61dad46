import { createContext, useContext } from "react";
import { DEFAULT_TIME_ZONE, formatDate, formatDateTime } from "../../lib/format.ts";

/**
 * The company's time zone (settings.timeZone, decision 015) for everything on the page: the server's
 * Document provides it and writes it on <html data-time-zone>, ui/client.ts gives each island the same
 * value, so the server's HTML and the hydrated island show the same wall-clock time.
 */
export const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

export const useTimeZone = () => useContext(TimeZoneContext);

/** A stored instant (UTC) on the company's clock as MM-DD-YY HH:mm; rendered on the server too. */
export function DateTime({ value }: { value: string | null | undefined }) {
  const timeZone = useTimeZone();
  if (!value) return null;
  return <time dateTime={value}>{formatDateTime(value, timeZone)}</time>;
}

/**
 * The day of a stored instant (UTC) on the company's clock as MM-DD-YYYY: the day the date filters
 * count it on. Rendered on the server too.
 */
export function Day({ value }: { value: string | null | undefined }) {
  const timeZone = useTimeZone();
  if (!value) return null;
  return <time dateTime={value}>{formatDate(value, timeZone)}</time>;
}
