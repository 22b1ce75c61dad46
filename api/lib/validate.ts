/**
 * Input checks shared by the routes, the services and the browser's forms: zod helpers, bounded numbers, text
 * rules. Islands import it (through the features' schemas), so it imports no server-only package; the hono
 * glue, `valid()`, is `api/lib/validator.ts`.
 */
import { z, type ZodType } from "zod";
import { MAX_QUANTITY } from "../../lib/enums.ts";
import { hasAtMostDecimals, UNIT_PRICE_DECIMALS } from "../../lib/format.ts";
import { AppError, type FieldError } from "../../lib/errors.ts";

/** zod issues as the spec's field messages: `{path, message}`, the first one also the `detail`. */
export function zodToAppError(error: { issues: z.core.$ZodIssue[] }): AppError {
  return fieldErrors(error.issues.map((i) => ({ path: i.path.join(".") || "body", message: i.message })));
}

function fieldErrors(errors: FieldError[]): AppError {
  const first = errors[0];
  const detail = first
    ? (first.path === "body" ? first.message : `${first.path}: ${first.message}`)
    : "Invalid input";
  return new AppError("invalid", detail, errors);
}

export const CONTROL_MESSAGE = "Control characters are not allowed";
export const NESTING_MESSAGE = "Nested too deeply";
export const UNICODE_MESSAGE = "Text must be valid Unicode";
/** Deeper than any form sends; far below what would overflow the stack of JSON.stringify or a walk. */
export const MAX_DEPTH = 32;
// C0 controls and DEL; tab, line feed and carriage return stay allowed (multi-line text).
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_ALL = new RegExp(CONTROL.source, "g");
const MAX_REPORTED = 20;

// ---- Invisible and direction-changing characters (decision 042) ----

/** U+XXXX of a code point, as the messages name it. */
const codeOf = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
export const directionMessage = (ch: string) => `Direction-changing character ${codeOf(ch)} is not allowed`;
export const invisibleMessage = (ch: string) => `Invisible character ${codeOf(ch)} is not allowed`;
export const separatorMessage = (ch: string) =>
  `Line or paragraph separator ${codeOf(ch)} is not allowed (use a line break)`;
export const markMessage = (ch: string) =>
  `Direction mark ${codeOf(ch)} is allowed only in text with right-to-left letters`;
export const joinerMessage = (ch: string) =>
  `Invisible character ${codeOf(ch)} is allowed only between letters or emoji that it joins`;

/**
 * Embeddings, overrides and isolates: they reorder what follows them (U+202E shows "exe.txt" as "txt.exe").
 */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
/** Line and paragraph separators: invisible line breaks, and line ends in JavaScript source and JSON-P. */
const SEPARATOR = /[\u2028\u2029]/;
/**
 * What text legitimately needs among the invisible characters: ZWNJ and ZWJ (Persian, Indic scripts, emoji
 * sequences), LRM, RLM and ALM (right-to-left text), the combining grapheme joiner, variation selectors
 * (emoji presentation, CJK variants) and tag characters (subdivision flags).
 */
const NEEDED = String.raw`\u200C-\u200F\u061C\u034F\p{Variation_Selector}\u{E0020}-\u{E007F}`;
/** Format characters that print a sign (prepended concatenation marks: Arabic number signs and the like). */
const VISIBLE_FORMAT = String.raw`\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}`;
/**
 * Every other format (Cf) or default-ignorable character: zero-width space, word joiner, BOM, soft hyphen,
 * U+180E, Hangul fillers, invisible operators, interlinear annotations, the language tag and the like.
 */
const INVISIBLE = new RegExp(
  String
    .raw`[[\p{Cf}\p{Default_Ignorable_Code_Point}]--[${NEEDED}${VISIBLE_FORMAT}\u202A-\u202E\u2066-\u2069]]`,
  "v",
);
const ANY_SPECIAL = new RegExp(
  String.raw`[${BIDI.source.slice(1, -1)}${SEPARATOR.source.slice(1, -1)}]|${INVISIBLE.source}|[${NEEDED}]`,
  "v",
);
const MARKS = /[\u200E\u200F\u061C]/;
const PRINTABLE_ASCII = /^[\t\n\r\x20-\x7E]*$/;
/** Letters of the right-to-left scripts in use: where LRM, RLM and ALM have work to do. */
const RTL_SCRIPTS = [
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Nko",
  "Samaritan",
  "Mandaic",
  "Adlam",
  "Hanifi_Rohingya",
  "Yezidi",
];
const RTL_LETTER = new RegExp(`[${RTL_SCRIPTS.map((name) => `\\p{Script=${name}}`).join("")}]`, "u");
/** A keycap's base: a variation selector may follow it in a name (1️⃣). */
const KEYCAP = /^[0-9#*]$/;
/** What a joiner may sit after or before in a name: a character outside ASCII, not a space, not invisible. */
const JOINABLE = new RegExp(
  String.raw`[[^\p{ASCII}\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}]\p{Variation_Selector}\u20E3]`,
  "v",
);

/**
 * How strictly a text is checked for invisible characters:
 * - `name`: names and identifiers (customer, company, item and user names, serial and item numbers, emails,
 *   search terms): a joiner or selector only right after a letter or emoji outside ASCII (and ZWNJ or ZWJ
 *   only before one), a direction mark only in text holding right-to-left letters, so two names that print
 *   the same cannot differ by an invisible character.
 * - `free`: notes, comments, descriptions, captions, addresses and `custom` values: the needed characters
 *   anywhere.
 * - `secret`: passwords, never shown: only the control and Unicode checks (a password set before this rule
 *   still signs in).
 * Every kind refuses direction overrides, embeddings and isolates, line and paragraph separators and the
 * other invisible characters.
 */
export type TextKind = "name" | "free" | "secret";

/** Keys whose text is free text (and everything under a `custom` object). */
const FREE_KEY = /^(notes?|comments?|description|[a-z_]*_description|address_line_\d+|message|caption)$/;
const SECRET_KEY = /password/i;
const kindOfKey = (key: string, parent: TextKind): TextKind =>
  parent === "free"
    ? "free"
    : SECRET_KEY.test(key)
    ? "secret"
    : key === "custom" || FREE_KEY.test(key)
    ? "free"
    : parent;

/**
 * What no text field may hold, wherever it sits in a body, query or form: control characters (a NUL
 * reads back as an empty string, bypassing 'Required'), lone surrogates, invisible and direction-changing
 * characters (by the kind of field: `TextKind`, from its key), and nesting deep enough to break a walk.
 * Checked before any schema, so no route or schema can forget it.
 */
export function inputProblems(input: unknown): FieldError[] {
  const out: FieldError[] = [];
  const stack: { v: unknown; path: string; depth: number; kind: TextKind }[] = [
    { v: input, path: "", depth: 0, kind: "name" },
  ];
  const at = (base: string, key: string | number) => (base ? `${base}.${key}` : String(key));
  while (stack.length && out.length < MAX_REPORTED) {
    const { v, path, depth, kind } = stack.pop()!;
    if (typeof v === "string") {
      const problem = textProblem(v, kind);
      if (problem) out.push({ path: path || "body", message: problem });
      continue;
    }
    if (typeof v !== "object" || v === null || !(Array.isArray(v) || isPlain(v))) continue;
    if (depth >= MAX_DEPTH) {
      out.push({ path: path || "body", message: NESTING_MESSAGE });
      continue;
    }
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const name = String(key).replace(CONTROL_ALL, "\uFFFD").toWellFormed();
      const problem = typeof key === "string" ? textProblem(key, "free") : undefined;
      if (problem) out.push({ path: at(path, name), message: problem });
      const childKind = typeof key === "string" ? kindOfKey(key, kind) : kind;
      stack.push({ v: child, path: at(path, name), depth: depth + 1, kind: childKind });
    }
  }
  return out;
}

/**
 * Why a text cannot be stored as sent, if it cannot: a control character, a lone surrogate (UTF-8
 * storage turns it into U+FFFD, so the stored value no longer matches what a later save looks up), or
 * an invisible or direction-changing character the kind of text may not hold (`TextKind`).
 */
export function textProblem(v: string, kind: TextKind = "name"): string | undefined {
  // Most text (a data URL's megabytes too) is printable ASCII, which no check below refuses: one pass.
  if (PRINTABLE_ASCII.test(v)) return undefined;
  if (CONTROL.test(v)) return CONTROL_MESSAGE;
  if (!v.isWellFormed()) return UNICODE_MESSAGE;
  if (kind === "secret" || !ANY_SPECIAL.test(v)) return undefined;
  return invisibleProblem(v, kind);
}

/** The first invisible or direction-changing character `v` may not hold as `kind` of text. */
function invisibleProblem(v: string, kind: TextKind): string | undefined {
  const chars = [...v];
  const rtl = RTL_LETTER.test(v);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (BIDI.test(ch)) return directionMessage(ch);
    if (SEPARATOR.test(ch)) return separatorMessage(ch);
    if (INVISIBLE.test(ch)) return invisibleMessage(ch);
    if (kind === "free") continue;
    if (MARKS.test(ch)) {
      if (!rtl) return markMessage(ch);
      continue;
    }
    if (!ANY_SPECIAL.test(ch)) continue;
    // A joiner, selector or tag: right after a letter or emoji outside ASCII (a keycap's digit for a
    // selector), past the rest of its own sequence; ZWNJ and ZWJ join two, so one must follow too.
    const joins = ch === "\u200C" || ch === "\u200D";
    let j = i - 1;
    while (j >= 0 && ANY_SPECIAL.test(chars[j]) && !MARKS.test(chars[j])) j--;
    const after = j >= 0 && (JOINABLE.test(chars[j]) || (!joins && KEYCAP.test(chars[j])));
    const before = !joins || (i + 1 < chars.length && JOINABLE.test(chars[i + 1]));
    if (!after || !before) return joinerMessage(ch);
  }
  return undefined;
}

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Throws the 422 of inputProblems, if any. */
export function refuseBadInput(input: unknown): void {
  const problems = inputProblems(input);
  if (problems.length) throw fieldErrors(problems);
}

/** Parses with a schema inside a service, answering 422 the same way. */
export function parse<T extends ZodType>(schema: T, input: unknown): z.infer<T> {
  refuseBadInput(input);
  const r = schema.safeParse(input);
  if (!r.success) throw zodToAppError(r.error);
  return r.data;
}

// ---- Bounded numbers: one set of business ranges for every schema (issue 9, item 8). ----

export const NUMBER_MESSAGE = "Must be a number";
export const WHOLE_MESSAGE = "Must be a whole number";
export const atLeast = (n: number) => `Must be at least ${n}`;
export const atMost = (n: number) => `Must be at most ${n}`;
export const between = (a: number, b: number) => `Must be between ${a} and ${b}`;

/** Prices, rates and purchase prices: |x| <= 10^9. Line prices may be negative (a credit line). */
export const MAX_MONEY = 1_000_000_000;
/** Markup may exceed 100% (cost plus); discount and taxes may not. */
export const MAX_MARKUP = 1000;
/** Days or hours a line bills: 100,000 is over 270 years of days, over 11 years of hours. */
export const MAX_DURATION = 100_000;
/** The spec's quantity limit (100000000). */
export { MAX_QUANTITY };
/** Row ids are SQLite integers; nothing legitimate comes near 2^31. */
export const MAX_ID = 2_147_483_647;
/** Measurements of an inspection (thickness, pressure): any unit, |x| <= 10^9. */
export const MAX_MEASUREMENT = 1_000_000_000;
/** A list page: far beyond any real table at the smallest page size. */
export const MAX_PAGE = 1_000_000;

type Message = string | ((issue: { input?: unknown }) => string);
export interface NumberOptions {
  /** The message when the value is not a number (default 'Must be a number'). */
  error?: Message;
  /** Coerce strings (query and path parameters). */
  coerce?: boolean;
}

const base = (o: NumberOptions) =>
  o.coerce
    ? z.coerce.number({ error: o.error ?? NUMBER_MESSAGE })
    : z.number({ error: o.error ?? NUMBER_MESSAGE });

// Each check aborts, so a value answers one message (1e300 is not also "not whole").
const stop = (error: string) => ({ error, abort: true });

/**
 * The most decimal places each kind of figure holds (decision 042): what the documents print and the totals
 * use. More is refused with a sentence naming the field, never rounded silently, so a value like 1e-30 (which
 * printed as 0 yet took part in the sums) cannot be stored.
 */
export const DECIMALS = {
  /** Unit prices and other money entered: as `unitPrice()` prints them (decision 015). */
  money: UNIT_PRICE_DECIMALS,
  /** Discount, markup and tax rates: shown to 3 places (the spec's percent format). */
  percent: 3,
  /**
   * Fractional quantities (charge codes: miles, gallons, hours billed) to 4 places, as a unit price (a
   * mileage of 12.125 is common); durations: the spec rounds hours to 2 decimals.
   */
  quantity: 4,
  duration: 2,
  /** Inspection measurements (thickness, pressure): ten-thousandths of the unit. */
  measurement: 4,
} as const;

/**
 * The refusal of a figure with more decimals than its field holds: `Price may have at most 4 decimal places`.
 */
export const decimalsMessage = (label?: string, places: number = UNIT_PRICE_DECIMALS) =>
  `${label ?? "Must"} ${label ? "may " : ""}have at most ${places} decimal place${places === 1 ? "" : "s"}`;

/** A check that `x` has at most `places` decimals (as `money()` reads a float: 0.1 + 0.2 is 0.3). */
const withDecimals = (places: number, label?: string) => <T extends z.ZodType<number>>(n: T): T =>
  n.refine((x) => hasAtMostDecimals(x, places), stop(decimalsMessage(label, places)));

/**
 * Money: between -10^9 and 10^9, or from `min` (0 for catalogue rates) up, with at most 4 decimals
 * (`DECIMALS.money`, 422 '<label> may have at most 4 decimal places').
 */
export function money(o: NumberOptions & { min?: number; label?: string } = {}) {
  const min = o.min ?? -MAX_MONEY;
  return withDecimals(DECIMALS.money, o.label)(
    base(o).min(min, stop(atLeast(min))).max(MAX_MONEY, stop(atMost(MAX_MONEY))),
  );
}

/**
 * A unit price (a line's price or minimum rate, an item's rate, a row's minimum and additional day
 * rates): money with at most 4 decimals, as printed (`unitPrice` in lib/format.ts); more is refused
 * (422 `<label> may have at most 4 decimal places`), never rounded silently.
 */
export function unitPrice(o: NumberOptions & { min?: number; label?: string } = {}) {
  return money({ ...o, label: o.label ?? "Price" });
}

/** A percent from 0 to `max` (100: discount and taxes; MAX_MARKUP for markup), at most 3 decimals. */
export function percent(o: NumberOptions & { max?: number } = {}) {
  const max = o.max ?? 100;
  return withDecimals(DECIMALS.percent)(
    base(o).min(0, stop(between(0, max))).max(max, stop(between(0, max))),
  );
}

/**
 * A stock or line quantity: 0 to MAX_QUANTITY (or `max`), whole unless `whole: false` (charge codes,
 * then at most 4 decimals).
 */
export function quantity(o: NumberOptions & { whole?: boolean; max?: number } = {}) {
  const max = o.max ?? MAX_QUANTITY;
  const n = base(o).min(0, stop(atLeast(0))).max(max, stop(atMost(max)));
  return o.whole === false ? withDecimals(DECIMALS.quantity)(n) : n.int(stop(WHOLE_MESSAGE));
}

/** A line's duration: 0 to MAX_DURATION, at most 2 decimals. */
export function duration(o: NumberOptions = {}) {
  return withDecimals(DECIMALS.duration)(
    base(o).min(0, stop(atLeast(0))).max(MAX_DURATION, stop(atMost(MAX_DURATION))),
  );
}

/** A row id: a positive whole number up to MAX_ID; every failure answers `message`. */
export function id(message = "Must be an id", o: Omit<NumberOptions, "error"> = {}) {
  return base({ ...o, error: message }).int(stop(message)).positive(stop(message)).max(MAX_ID, stop(message));
}

/** A measurement: |x| <= MAX_MEASUREMENT, at most 4 decimals. */
export function measurement(o: NumberOptions = {}) {
  return withDecimals(DECIMALS.measurement)(
    base(o).min(-MAX_MEASUREMENT, stop(atLeast(-MAX_MEASUREMENT)))
      .max(MAX_MEASUREMENT, stop(atMost(MAX_MEASUREMENT))),
  );
}

/** A whole number from 0 to `max` (line order, positions). */
export function wholeNumber(max: number, o: NumberOptions = {}) {
  return base(o).min(0, stop(atLeast(0))).max(max, stop(atMost(max))).int(stop(WHOLE_MESSAGE));
}

/** A 1-based page number of a list. */
export const page = () => z.coerce.number().int().min(1).max(MAX_PAGE, atMost(MAX_PAGE));

export const IDS_MESSAGE = "Must be a comma-separated list of ids";

/** A query's "12,7,30": the ids in that order, repeats dropped, at most `max`; blank is none (undefined). */
export const commaIds = (max: number) =>
  z.preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      const parts = v.split(",").map((t) => t.trim()).filter(Boolean);
      if (!parts.length) return undefined;
      if (!parts.every((p) => /^\d+$/.test(p))) return null;
      return [...new Set(parts.map(Number))];
    },
    z.array(id(IDS_MESSAGE), { error: IDS_MESSAGE }).max(max, `At most ${max} ids`).optional(),
  );

/** `/{id}` path parameters. */
export const IdParam = z.object({ id: id(undefined, { coerce: true }) });

/**
 * A JSON object body whose schema the service picks (it depends on who saves what, so the
 * permission check comes before parsing).
 */
export const JsonObject = z.record(z.string(), z.unknown(), { error: "Expected a JSON object" });

/** The most a `custom` object may hold, as JSON text. */
export const MAX_CUSTOM_CHARS = 20_000;
/** A record's free-form `custom` object, capped in size (it is stored and answered whole). */
export const customObject = (error = "Must be an object") =>
  z.record(z.string(), z.unknown(), { error }).refine(
    (v) => JSON.stringify(v).length <= MAX_CUSTOM_CHARS,
    `At most ${MAX_CUSTOM_CHARS} characters`,
  );
