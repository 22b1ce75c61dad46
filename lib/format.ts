/**
 * The one place money and dates become figures and text, shared by the ticket math, the screens (server
 * HTML and islands), the PDFs and the xlsx downloads (decision 015). Pure, fixed locale (en-US), so the
 * server's HTML, the hydrated island and the documents print the same characters.
 *
 * Money is rounded half-up (away from zero) on the decimal a float stands for: the float is cut to 15
 * significant digits and rounded as text, so 1578.285 (stored as 1578.28499999...) is 1,578.29.
 */

// ---- Money -------------------------------------------------------------------------------------

const PLAIN = /^(\d+)(?:\.(\d*))?$/;

/**
 * x in whole units of 10^-places (cents for 2), half-up on the exact decimal the float stands for:
 * cut to 15 significant digits and rounded as text, never `toFixed` on the float.
 */
function scaled(x: number, places: number): number {
  if (!Number.isFinite(x)) return Number.NaN;
  const abs = Math.abs(x);
  // Fast path (a ticket list rounds hundreds of amounts a page): below 10^8 units the float's 15-digit decimal
  // and abs * unit differ by under 10^-6 of a unit, so a product whose fraction is not that close to one half
  // rounds the same either way. Only near-halves (1578.285) go through the digits.
  const p = abs * 10 ** places;
  if (p < 1e8) {
    const f = p - Math.floor(p);
    if (f < 0.499999 || f > 0.500001) {
      const n = Math.round(p);
      return x < 0 && n !== 0 ? -n : n;
    }
  }
  const m = PLAIN.exec(abs.toPrecision(15));
  const unit = 10 ** places;
  // Exponent forms: below 1e-6 rounds to nothing; beyond 1e21 has no fraction to round.
  const n = !m ? (abs < 1 ? 0 : Math.round(abs * unit)) : (() => {
    const frac = (m[2] ?? "").padEnd(places + 1, "0");
    const kept = places ? Number(frac.slice(0, places)) : 0;
    return Number(m[1]) * unit + kept + (frac[places] >= "5" ? 1 : 0);
  })();
  return x < 0 && n !== 0 ? -n : n;
}

/** Whole cents, half-up on the exact decimal. */
export const toCents = (x: number): number => scaled(x, 2);

/** Half-up (away from zero) to cents: `toCents(x) / 100`. */
export function roundMoney(x: number): number {
  if (!Number.isFinite(x)) return x;
  return toCents(x) / 100;
}

const groups = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Money as `$1,234.50` (`-$1.00` below zero), rounded as `toCents`; none is blank. */
export function money(n: number | null | undefined): string {
  if (n === null || n === undefined) return "";
  if (!Number.isFinite(n)) return "";
  const c = toCents(n);
  const abs = Math.abs(c);
  return `${c < 0 ? "-" : ""}$${groups(String(Math.floor(abs / 100)))}.${String(abs % 100).padStart(2, "0")}`;
}

/** The most decimals a unit price (price, minimum rate, additional day rate, item rate) holds. */
export const UNIT_PRICE_DECIMALS = 4;

/**
 * True when the decimal x stands for (cut to 15 significant digits, as `money` reads it) has at most
 * `places` decimals: 0.655 and 0.1 + 0.2 yes, 0.65549 not for 4.
 */
export function hasAtMostDecimals(x: number, places = UNIT_PRICE_DECIMALS): boolean {
  if (!Number.isFinite(x)) return false;
  const d = Number(x.toPrecision(15));
  return scaled(d, places) / 10 ** places === d;
}

/**
 * A unit price (price, minimum rate, additional day rate: any per-unit rate) as entered: `$0.655`,
 * `$33.335`, `$12.3456`, `$5.00`. At least 2 and at most 4 decimals (decision 015: prices may hold 4),
 * so a reader who multiplies the printed figures gets the printed amount; amounts stay `money()`.
 * More than 4 decimals (never stored: refused at input) round half-up at the fourth. None is blank.
 */
export function unitPrice(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "";
  const u = scaled(n, UNIT_PRICE_DECIMALS);
  const abs = Math.abs(u);
  const unit = 10 ** UNIT_PRICE_DECIMALS;
  const frac = String(abs % unit).padStart(UNIT_PRICE_DECIMALS, "0").replace(/0{1,2}$/, "");
  return `${u < 0 ? "-" : ""}$${groups(String(Math.floor(abs / unit)))}.${frac}`;
}

/** The xlsx number format of unit prices: 2 to 4 decimals, as `unitPrice` prints them. */
export const UNIT_PRICE_XLSX_FORMAT = "#,##0.00##";
/** The xlsx number format of money amounts (cents). */
export const MONEY_XLSX_FORMAT = "#,##0.00";

// ---- Numbers -----------------------------------------------------------------------------------

const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** Quantities, days and percents with thousands separators and up to 6 decimals; none is blank. */
export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : NUMBER.format(value);
}

/** A percent to 3 places as the spec shows it (8.25 as `8.250%`), half-up on the exact decimal; none is blank. */
export function formatPercent(value: number | null | undefined, places = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  const n = scaled(value, places);
  const abs = String(Math.abs(n)).padStart(places + 1, "0");
  const text = places ? `${abs.slice(0, -places)}.${abs.slice(-places)}` : abs;
  return `${n < 0 ? "-" : ""}${text}%`;
}

// ---- Inspection measures (decision 044) ------------------------------------------------------

/** Decimals of an ultrasonic thickness reading (inches): 0.42, 0.426 and 0.4 print as 0.420, 0.426, 0.400. */
export const UT_DECIMALS = 3;
/** The xlsx number format of UT readings: the same 3 decimals. */
export const UT_XLSX_FORMAT = "0.000";
/** The xlsx number format of test pressures: whole psi with thousands separators. */
export const PRESSURE_XLSX_FORMAT = '#,##0" psi"';

const UT = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: UT_DECIMALS,
  maximumFractionDigits: UT_DECIMALS,
});
const PSI = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A UT reading with `UT_DECIMALS` decimals (half-up on the exact decimal); none is blank. */
export function formatUt(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  return UT.format(scaled(value, UT_DECIMALS) / 10 ** UT_DECIMALS);
}

/** A test pressure in whole psi with thousands separators and the unit: `15,000 psi`; none is blank. */
export function formatPressure(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  return `${PSI.format(scaled(value, 0))} psi`;
}

// ---- Dates and times ---------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A date as MM-DD-YYYY; anything unreadable as given. A calendar date (`YYYY-MM-DD`: ticket, invoice,
 * job dates) has no time zone and is shown as stored; an instant (it has a time) given with a zone is
 * the day on that zone's clock, without one its stored (UTC) day.
 */
export function formatDate(value: string | null | undefined, timeZone?: string): string {
  if (!value) return "";
  if (timeZone && value.length > 10 && value[10] === "T") {
    const p = zonedParts(value, timeZone);
    if (p) return `${p.month}-${p.day}-${p.year}`;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[2]}-${m[3]}-${m[1]}` : value;
}

/**
 * A day as the sales lists show it, the spec's MM-DD-YY ("MM-DD-YY in lists; M/D/YYYY elsewhere"): the
 * ticket lists and Sales Data, beside their MM-DD-YY HH:mm times. Headers, forms and documents keep the
 * four-digit year.
 */
export function formatListDate(value: string | null | undefined, timeZone?: string): string {
  const full = formatDate(value, timeZone);
  return /^\d{2}-\d{2}-\d{4}$/.test(full) ? `${full.slice(0, 6)}${full.slice(8)}` : full;
}

/** The xlsx format of every date cell of every download: the MM-DD-YYYY the screens and PDFs print. */
export const DATE_XLSX_FORMAT = "mm-dd-yyyy";
/** The xlsx format of every date-and-time cell: the same date, then the time on the company's clock. */
export const DATE_TIME_XLSX_FORMAT = "mm-dd-yyyy hh:mm";

/**
 * A ticket's service dates from its lines' starts and ends (instants, on the company's clock): "first start
 * to last end"; "From <first start>" when no line has ended or one started after the last end (still out),
 * one date when they agree.
 * Blank without a start.
 */
export function serviceDates(
  lines: { start_date: string | null; end_date: string | null }[],
  show: (value: string) => string,
): string {
  let from: string | undefined, to: string | undefined, open: string | undefined;
  for (const l of lines) {
    if (l.start_date && (!from || l.start_date < from)) from = l.start_date;
    if (l.end_date && (!to || l.end_date > to)) to = l.end_date;
    if (l.start_date && !l.end_date && (!open || l.start_date > open)) open = l.start_date;
  }
  if (!from) return "";
  const start = show(from);
  // Not ended: a line still out after the last end leaves the range open.
  if (!to || (open && open > to)) return `From ${start}`;
  const end = show(to);
  return end === start ? start : `${start} to ${end}`;
}

/** `YYYY-MM-DD` plus n calendar days (a due date from an invoice date and its terms). */
export function addDays(date: string, n: number): string {
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) return date;
  return new Date(t + n * 86_400_000).toISOString().slice(0, 10);
}

/** The zone instants are shown in when a company names none (storage is always UTC). */
export const DEFAULT_TIME_ZONE = "UTC";

/** True for an IANA time zone name this runtime knows (`America/Chicago`, `UTC`). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== "string" || name === "" || name.length > 64) return false;
  // Asked for every date cell of a download: building a formatter to find out costs far more than the cell.
  let known = checkedZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (checkedZones.size < 1000) checkedZones.set(name, known);
  }
  return known;
}
const checkedZones = new Map<string, boolean>();

/** A company's `settings.timeZone` when usable, else UTC. */
export function timeZoneOf(settings: Record<string, unknown> | null | undefined): string {
  const tz = settings?.timeZone;
  return isTimeZone(tz) ? tz : DEFAULT_TIME_ZONE;
}

const zoned = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  const cached = zoned.get(timeZone);
  if (cached) return cached;
  const tz = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  let f = zoned.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    zoned.set(tz, f);
  }
  return f;
}

/** An instant's wall-clock parts in a time zone. */
export function zonedParts(value: string | Date, timeZone: string) {
  const d = value instanceof Date ? value : new Date(value);
  const t = d.getTime();
  if (Number.isNaN(t)) return null;
  const offset = dayOffset(timeZone, t);
  if (offset !== undefined) {
    const w = new Date(t + offset);
    return {
      year: String(w.getUTCFullYear()),
      month: pad(w.getUTCMonth() + 1),
      day: pad(w.getUTCDate()),
      hour: pad(w.getUTCHours()),
      minute: pad(w.getUTCMinutes()),
    };
  }
  const p = Object.fromEntries(zoneFormat(timeZone).formatToParts(d).map((x) => [x.type, x.value]));
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    hour: p.hour === "24" ? "00" : p.hour,
    minute: p.minute,
  };
}

/**
 * An instant's wall-clock time in a time zone, to the minute, as the milliseconds of a UTC clock showing it
 * (a spreadsheet's date-time has no zone); NaN when the value is not an instant. Asked for every date cell of
 * a download: no parts, no Date beyond the parse.
 */
export function wallClockMinute(value: string | Date, timeZone: string): number {
  const t = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(t)) return Number.NaN;
  const offset = dayOffset(timeZone, t);
  if (offset !== undefined) {
    const w = t + offset;
    return w - (((w % 60_000) + 60_000) % 60_000);
  }
  const p = zonedParts(new Date(t), timeZone)!;
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute);
}

/**
 * The zone's offset from UTC (ms) all through the UTC day of instant t, when it is one offset all day; else
 * undefined. Asking Intl for every instant cost a download of 200,000 lines a tenth of the server's thread
 * (formatToParts, about 5 µs each); a day's offset is asked three times (its start, noon, its last second) and
 * kept, and days with a daylight-saving change in them are answered by Intl each time. Only 1970-2099.
 */
function dayOffset(timeZone: string, t: number): number | undefined {
  if (!(t >= 0 && t < 4_102_444_800_000)) return undefined;
  let days = dayOffsets.get(timeZone);
  if (!days) {
    if (dayOffsets.size >= 100) dayOffsets.clear();
    days = new Map();
    dayOffsets.set(timeZone, days);
  }
  const day = Math.floor(t / 86_400_000);
  let offset = days.get(day);
  if (offset === undefined) {
    const start = day * 86_400_000;
    const at = (x: number) => offsetAt(timeZone, x);
    const first = at(start);
    offset = first === at(start + 43_200_000) && first === at(start + 86_399_000) ? first : NaN;
    if (days.size >= 20_000) days.clear();
    days.set(day, offset);
  }
  return Number.isNaN(offset) ? undefined : offset;
}
const dayOffsets = new Map<string, Map<number, number>>();

/** The zone's offset from UTC (ms, to the second) at instant t, a whole second. */
function offsetAt(timeZone: string, t: number): number {
  const tz = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  let f = zonedSeconds.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    zonedSeconds.set(tz, f);
  }
  const p: Record<string, number> = {};
  for (const x of f.formatToParts(new Date(t))) p[x.type] = Number(x.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second) - t;
}
const zonedSeconds = new Map<string, Intl.DateTimeFormat>();

/**
 * Where a date is shown, which sets its year (decision 044): in a `list` (a table's rows, their cards on a
 * phone) the spec's two-digit MM-DD-YY; on a `page` (headers, detail pages, dialogs' facts, documents) the
 * four-digit MM-DD-YYYY that formatDate gives.
 */
export type DatePlace = "list" | "page";

/**
 * A stored instant (ISO, UTC) on the company's clock: MM-DD-YY HH:mm in a list, MM-DD-YYYY HH:mm on a page
 * (decision 044). The zone is explicit, so the server's HTML, the island and the PDF agree whatever zone the
 * server or browser runs in.
 */
export function formatDateTime(
  value: string | null | undefined,
  timeZone = DEFAULT_TIME_ZONE,
  place: DatePlace = "list",
): string {
  if (!value) return "";
  const p = zonedParts(value, timeZone);
  if (!p) return value;
  return `${p.month}-${p.day}-${place === "page" ? p.year : p.year.slice(2)} ${p.hour}:${p.minute}`;
}

/** A stored instant as the `YYYY-MM-DDTHH:mm` a datetime-local input shows, on the zone's clock. */
export function toZonedInput(value: string | null | undefined, timeZone = DEFAULT_TIME_ZONE): string {
  if (!value) return "";
  const p = zonedParts(value, timeZone);
  return p ? `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}` : "";
}

/**
 * A datetime-local value (`YYYY-MM-DDTHH:mm`, wall-clock time in the zone) as the UTC
 * `YYYY-MM-DDTHH:mm` the API takes; "" when it is not such a value. A time skipped by a daylight-saving
 * change is taken an hour later, as a clock would show it.
 */
export function fromZonedInput(local: string, timeZone = DEFAULT_TIME_ZONE): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return "";
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const offsetAt = (t: number) => {
    const p = zonedParts(new Date(t), timeZone)!;
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute) - t;
  };
  const first = wall - offsetAt(wall);
  const second = wall - offsetAt(first);
  const iso = (t: number) => new Date(t).toISOString();
  const t = toZonedInput(iso(second), timeZone) === local ? second : Math.max(first, second);
  return iso(t).slice(0, 16);
}

/**
 * The calendar day a date filter names: a `YYYY-MM-DD` as given; an instant with its offset (`...Z`,
 * `...+05:30`) the day it falls on on the zone's clock; anything else its first ten characters.
 */
export function dayOf(value: string, timeZone = DEFAULT_TIME_ZONE): string {
  if (value.length > 10 && /(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    const p = zonedParts(value, timeZone);
    if (p) return `${p.year}-${p.month}-${p.day}`;
  }
  return value.slice(0, 10);
}

/**
 * Where a calendar day (`YYYY-MM-DD`) begins on the zone's clock, as the UTC minute (`YYYY-MM-DDTHH:mm`)
 * stored instants start with. A filter on days first..last keeps `instant >= dayStartUtc(first)` and
 * `instant < dayStartUtc(addDays(last, 1))`: the stored column is compared as it is, so its index serves.
 * A day whose midnight a daylight-saving change skips begins when its clock does.
 */
export function dayStartUtc(day: string, timeZone = DEFAULT_TIME_ZONE): string {
  return fromZonedInput(`${day.slice(0, 10)}T00:00`, timeZone);
}

/** Today on the company's clock as YYYY-MM-DD (the browser's clock when no zone is given). */
export function today(now = new Date(), timeZone?: string): string {
  if (timeZone) {
    const p = zonedParts(now, timeZone)!;
    return `${p.year}-${p.month}-${p.day}`;
  }
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A calendar date as the forms send it: YYYY-MM-DD, and a real day. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
