// Seeded random values for the API fuzzer: hostile numbers and strings, junk structures, and valid
// bodies with one field broken.

export type Rng = () => number;

/** mulberry32: a small, fast, seeded PRNG, so a failing run replays with its seed. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.001,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  -(2 ** 53),
  1e9,
  1e9 + 1,
  100_000_001,
  123456789.123456789,
  4.9e-324,
  // The largest values the schemas accept: they reach the arithmetic and the database.
  2_147_483_647,
  100_000_000,
  1_000_000_000,
  -1_000_000_000,
  100_000,
  1000,
  100,
  // More decimals than a field holds (decision 042): tiny values, long fractions, float noise.
  1e-30,
  -1e-30,
  0.00001,
  12.34567,
  33.333333333333336,
  0.1 + 0.2,
  99.9999,
  1.0005,
];
const NUMERIC_TEXT = [
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "-1",
  " 12 ",
  "0x10",
  "1,000",
  "$5",
  "1e-400",
  "٣",
  "1e-30",
  "0.000001",
  "12.34567",
];
const CONTROL = ["\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f", "\u007f"];
/** A control character, NUL most often (SQLite text ends at it). */
const control = (rng: Rng) => (rng() < 0.4 ? "\u0000" : pick(rng, CONTROL));
const TEXT = [
  "",
  " ",
  "\t\r\n",
  "' OR 1=1 --",
  '"; DROP TABLE items; --',
  "%_\\",
  "<script>alert(1)</script>",
  "null",
  "undefined",
  "true",
  "__proto__",
  "2024-02-30",
  "9999-99-99T99:99",
  "2024-01-01T00:00:00Z",
  "1970-01-01",
  "\ud800",
  "\udfff\ud800",
  "😀👨‍👩‍👧",
  "\u202e\u200b",
  // Invisible and direction-changing characters (decision 042), alone and inside names.
  "Acme\u202e Ltd",
  "a\u2066b\u2069",
  "a\u2028b",
  "\u2029",
  "Ac\u200bme",
  "Ac\u2060me",
  "\ufeffAcme",
  "Ac\u00adme",
  "\u180e",
  "\u3164",
  "Acme\u200d",
  "Acme\u200e",
  "\u{e0001}x",
  "می\u200cخواهم",
  "ß".repeat(300),
  "OPEN",
  "APP",
  "QUOTE",
  "Serialized",
  "Charge Code",
  "Base",
  "Business Unit",
  "Company-Admin",
  "data:application/pdf;base64,JVBERi0=",
];
const KEYS = ["id", "__proto__", "constructor", "toString", "", " ", "a.b", "0", "custom", "\u0000"];

/** A hostile scalar: a number, numeric text, control characters, long or odd text, a flag or null. */
export function randomScalar(rng: Rng): unknown {
  const r = rng();
  if (r < 0.2) return pick(rng, NUMBERS);
  if (r < 0.3) return (rng() - 0.5) * 10 ** int(rng, 0, 12);
  if (r < 0.4) return pick(rng, NUMERIC_TEXT);
  if (r < 0.5) return `a${control(rng)}b`;
  if (r < 0.55) return "x".repeat(pick(rng, [201, 1001, 5001, 20_001, 100_001]));
  if (r < 0.8) return pick(rng, TEXT);
  if (r < 0.9) return pick(rng, [true, false]);
  return null;
}

/** Any JSON value, nested up to `depth` (and now and then far deeper). */
export function randomValue(rng: Rng, depth = 2): unknown {
  const r = rng();
  if (depth <= 0 || r < 0.7) return randomScalar(rng);
  if (r < 0.8) return Array.from({ length: int(rng, 0, 4) }, () => randomValue(rng, depth - 1));
  if (r < 0.97) {
    const o: Record<string, unknown> = {};
    for (let i = int(rng, 0, 4); i > 0; i--) put(o, pick(rng, KEYS), randomValue(rng, depth - 1));
    return o;
  }
  let deep: unknown = 1;
  for (let i = int(rng, 30, 5000); i > 0; i--) deep = rng() < 0.5 ? [deep] : { a: deep };
  return deep;
}

/** A path id: mostly one of the seeded rows, sometimes zero, negative or huge. */
export function randomId(rng: Rng): number {
  return rng() < 0.8 ? int(rng, 1, 12) : pick(rng, [0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 99_999]);
}

function mutate(rng: Rng, sample: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(sample);
  const out = { ...sample };
  const key = keys.length ? pick(rng, keys) : "id";
  const r = rng();
  if (r < 0.1) delete out[key];
  else if (r < 0.3 && typeof sample[key] === "number") out[key] = randomId(rng);
  else if (r < 0.45 && typeof sample[key] === "string") out[key] = `${sample[key]}${control(rng)}`;
  else out[key] = randomValue(rng);
  return out;
}

/**
 * A body for a route whose valid-looking body is `sample` (an object, or a list of rows): the sample
 * as is, with one field broken, some fields randomised, a list of such rows, or pure junk.
 */
export function randomBody(rng: Rng, sample: unknown): unknown {
  const r = rng();
  if (r < 0.1 || sample === undefined) return rng() < 0.5 ? randomValue(rng, 3) : randomObject(rng, {});
  if (Array.isArray(sample)) {
    const rows = sample as Record<string, unknown>[];
    if (r < 0.2) return rows;
    return rows.map((row) => (rng() < 0.5 ? mutate(rng, row) : row));
  }
  const s = sample as Record<string, unknown>;
  if (r < 0.15) return s;
  if (r < 0.7) return mutate(rng, s);
  if (r < 0.85) return mutate(rng, mutate(rng, s));
  return randomObject(rng, s);
}

/** The sample's keys (or random ones) with random values. */
function randomObject(rng: Rng, sample: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(sample);
  const o: Record<string, unknown> = {};
  for (const k of keys) if (rng() < 0.6) o[k] = randomValue(rng);
  if (!keys.length || rng() < 0.3) put(o, pick(rng, KEYS), randomValue(rng));
  return o;
}

/** An own property even for `__proto__`, as JSON.parse makes it on the server. */
function put(o: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
