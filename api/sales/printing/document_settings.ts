// The company settings a ticket document prints (docs/company-settings.md): the seller's address, the
// remit-to details, the payment terms and the time zone. Saving settings checks them with
// `documentSettingsProblem` (422 naming the key); reading them never fails (unusable means absent).
import { isTimeZone, timeZoneOf } from "../../../lib/format.ts";

export const MAX_ADDRESS_LINES = 8;
export const MAX_ADDRESS_LINE = 200;
export const MAX_TERMS_DAYS = 365;

export interface DocumentSettings {
  /** Printed under the seller's name. */
  address: string[];
  /** Where and how to pay, printed on invoices. */
  remitTo: string[];
  /** Net days: the due date is the invoice date plus these; null when the company names none. */
  termsDays: number | null;
  timeZone: string;
}

/** A list of lines, or one text with line breaks. */
function lines(v: unknown): string[] {
  const list = typeof v === "string" ? v.split(/\r?\n/) : Array.isArray(v) ? v : [];
  return list.filter((l): l is string => typeof l === "string").map((l) => l.trim()).filter((l) => l !== "")
    .slice(0, MAX_ADDRESS_LINES);
}

const isTerms = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_TERMS_DAYS;

export function documentSettings(settings: Record<string, unknown> | null | undefined): DocumentSettings {
  return {
    address: lines(settings?.sellerAddress),
    remitTo: lines(settings?.remitTo),
    termsDays: isTerms(settings?.paymentTermsDays) ? settings.paymentTermsDays : null,
    timeZone: timeZoneOf(settings),
  };
}

function linesProblem(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const list = typeof v === "string" ? v.split(/\r?\n/) : Array.isArray(v) ? v : null;
  if (!list || list.some((l) => typeof l !== "string")) return "Must be a list of text lines";
  if (list.length > MAX_ADDRESS_LINES) return `At most ${MAX_ADDRESS_LINES} lines`;
  if (list.some((l) => (l as string).length > MAX_ADDRESS_LINE)) {
    return `At most ${MAX_ADDRESS_LINE} characters a line`;
  }
  return null;
}

/** The first unusable document setting as [field, sentence], or null. */
export function documentSettingsProblem(
  settings: Record<string, unknown> | undefined,
): [field: string, message: string] | null {
  if (!settings) return null;
  if (settings.timeZone !== undefined && !isTimeZone(settings.timeZone)) {
    return ["settings.timeZone", "Must be an IANA time zone name, such as America/Chicago"];
  }
  for (const key of ["sellerAddress", "remitTo"] as const) {
    const problem = linesProblem(settings[key]);
    if (problem) return [`settings.${key}`, problem];
  }
  const terms = settings.paymentTermsDays;
  if (terms !== undefined && terms !== null && !isTerms(terms)) {
    return ["settings.paymentTermsDays", `Must be a whole number of days from 0 to ${MAX_TERMS_DAYS}`];
  }
  return null;
}
