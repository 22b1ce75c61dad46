// Exact decimal arithmetic for the month test's expectations: values are BigInts scaled by 10^30,
// every division is checked to be exact, and rounding to cents happens only where asked. Written
// from the rule in the spec and decisions 007 and 015 (each amount of a line rounded half-up to cents,
// ticket totals the sums of those), independently of rules.ts (which the test checks).

const DIGITS = 30;
const ONE = 10n ** BigInt(DIGITS);

/** A decimal written as text or a JS number (its shortest decimal form, e.g. 10.005). */
export function dec(x: number | string | null | undefined): bigint {
  if (x === null || x === undefined) return 0n;
  const s = typeof x === "number" ? String(x) : x.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a plain decimal: ${s}`);
  const frac = (m[3] ?? "").padEnd(DIGITS, "0");
  if (frac.length > DIGITS) throw new Error(`too many decimals: ${s}`);
  const v = BigInt(m[2]) * ONE + BigInt(frac);
  return m[1] ? -v : v;
}

function exactDiv(a: bigint, b: bigint): bigint {
  if (a % b !== 0n) throw new Error("inexact division: the expectation would not be exact");
  return a / b;
}

export const mul = (a: bigint, b: bigint) => exactDiv(a * b, ONE);
/** p percent of a. */
export const percentOf = (a: bigint, p: bigint) => exactDiv(a * p, ONE * 100n);

/** Half-up (away from zero) to whole cents. */
export function toCents(x: bigint): bigint {
  const neg = x < 0n;
  const abs = neg ? -x : x;
  const unit = ONE / 100n;
  const c = (abs + unit / 2n) / unit;
  return neg ? -c : c;
}

export const centsToNumber = (c: bigint) => Number(c) / 100;

/** "$1,234.50" as the PDF prints money. */
export function usd(c: bigint): string {
  const neg = c < 0n;
  const abs = neg ? -c : c;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}$${whole}.${(abs % 100n).toString().padStart(2, "0")}`;
}

/** The money fields of a line as the test last sent them (null: none). */
export interface ModelMoney {
  quantity: number;
  price: number | string;
  duration: number;
  minimum_rate: number | string | null;
  markup: number | null;
  discount: number | null;
  state_tax: number | null;
  county_tax: number | null;
  city_tax: number | null;
}

export interface ExactLine {
  base: bigint;
  markup: bigint;
  discount: bigint;
  state: bigint;
  county: bigint;
  city: bigint;
  total: bigint;
}

/** Rounded half-up to whole cents, kept at the model's scale. */
const cents = (x: bigint) => toCents(x) * (ONE / 100n);

/**
 * The spec's line total: without min rate logic quantity*price*duration, with it
 * quantity*minimum_rate + quantity*price*duration; markup % of base; discount % of base plus markup;
 * each tax % of that. Each amount is rounded to cents before the next is taken from it (decision 015).
 */
export function exactLine(l: ModelMoney, minRate: boolean): ExactLine {
  const q = dec(l.quantity);
  const perDay = mul(mul(q, dec(l.price)), dec(l.duration));
  const base = cents(minRate ? mul(q, dec(l.minimum_rate)) + perDay : perDay);
  const markup = cents(percentOf(base, dec(l.markup)));
  const discount = cents(percentOf(base + markup, dec(l.discount)));
  const taxable = base + markup - discount;
  const state = cents(percentOf(taxable, dec(l.state_tax)));
  const county = cents(percentOf(taxable, dec(l.county_tax)));
  const city = cents(percentOf(taxable, dec(l.city_tax)));
  return { base, markup, discount, state, county, city, total: taxable + state + county + city };
}

/** A ticket's totals in cents: the sums of the lines' rounded amounts. */
export function exactTotals(lines: ModelMoney[], minRate: boolean) {
  const ex = lines.map((l) => exactLine(l, minRate));
  const sum = (k: keyof ExactLine) => toCents(ex.reduce((s, l) => s + l[k], 0n));
  return {
    subtotal: sum("base"),
    markup: sum("markup"),
    discount: sum("discount"),
    state_tax: sum("state"),
    county_tax: sum("county"),
    city_tax: sum("city"),
    grandtotal: sum("total"),
  };
}

/** A float the server computed (a sum of exact-ish amounts) read as the decimal it stands for. */
export const fromFloat = (x: number) =>
  dec(Number.parseFloat(x.toPrecision(15)).toFixed(20).replace(/0+$/, "0"));

/** mulberry32: a small seeded PRNG so the month is the same on every run. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
