/**
 * The spec's display formats: MM-DD-YYYY for dates, MM-DD-YY HH:mm for instants, numbers with
 * thousands separators. Fixed locale, so the server's HTML and the hydrated island agree.
 */
const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYY-MM-DD` (or an ISO instant's date) as MM-DD-YYYY; anything else as given. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[2]}-${m[3]}-${m[1]}` : value;
}

/** An ISO instant as MM-DD-YY HH:mm in the browser's time zone (only render it client-side). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${String(d.getFullYear()).slice(2)} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const MONEY = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Money as $1,234.50 (fixed locale: the server's HTML and the island agree); none is blank. */
export function money(n: number | null | undefined): string {
  return n === null || n === undefined ? "" : MONEY.format(n);
}

const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : NUMBER.format(value);
}

/** Today in the browser's time zone as YYYY-MM-DD: the forms' default date. */
export function today(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
