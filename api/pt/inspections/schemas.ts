import { z } from "zod";
import { isIsoDate } from "../../../lib/format.ts";
import { BAND_COLORS, MPI_RESULTS } from "../../../lib/enums.ts";
import { customObject, id, measurement as bounded } from "../../lib/validate.ts";

export { BAND_COLORS, MPI_RESULTS };

export const INSPECTION_SORTS = [
  "inspection_time",
  "date",
  "serial_number",
  "batch",
  "part_name",
  "band_color",
  "mpi_result",
] as const;

export const REQUIRED = "Required";
export const NUMBER_MESSAGE = "Must be a number";
export const DATE_MESSAGE = "Must be a date (YYYY-MM-DD)";
export const BAND_COLOR_MESSAGE = `Must be one of ${BAND_COLORS.join(", ")}`;
export const MPI_RESULT_MESSAGE = `Must be one of ${MPI_RESULTS.join(", ")}`;
export const UNKNOWN_PART = "Unknown part";
export const NO_SERIALS = "At least one serial number is required";
export const PDF_MESSAGE = "The attachment must be a PDF file";
export const MAX_BATCH_SERIALS = 5000;

const blankToNull = (v: unknown) => (v === "" || v === null ? null : v);
const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

export const DateInput = z.preprocess(
  trimmed,
  z.string({ error: REQUIRED }).min(1, { error: REQUIRED, abort: true }).refine(isIsoDate, DATE_MESSAGE),
);

const requiredId = z.preprocess(blankToNull, id(REQUIRED, { coerce: true }));
/** An id that may be absent, or null/"" (no value). */
const optionalId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : blankToNull(v)),
    id(message).nullable().optional(),
  );

/** A form's number field: a number, a numeric string, or blank/null for no value. */
const measurement = z.preprocess(
  (v) => {
    const t = blankToNull(trimmed(v));
    return typeof t === "string" && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
  },
  bounded().nullable().optional(),
);

const text = (max: number) =>
  z.preprocess((v) => (v === null ? "" : v), z.string().trim().max(max, `At most ${max} characters`))
    .optional();

export const VISUAL_PASS_MESSAGE = "Must be true (passed), false (failed) or null (not recorded)";

/**
 * Pass Visual?: a recorded answer (true or false) or none (null, blank or absent: not recorded, as a new
 * form starts, issue 32). The spec requires only the date, so no answer is required; anything else is 422.
 */
const visualPass = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : blankToNull(v)),
  z.boolean({ error: VISUAL_PASS_MESSAGE }).nullable().optional(),
);

/**
 * POST/PATCH /api/pt/inspections. The three company ids, `part` and `job` objects in a body are ignored:
 * companies always come from the job. On an update, an absent field is left as stored.
 */
export const InspectionInput = z.object({
  id: optionalId("Unknown inspection"),
  job_id: requiredId,
  date: DateInput,
  serial_number: text(200),
  batch: text(200),
  part_id: optionalId(UNKNOWN_PART),
  visual_pass: visualPass,
  ut_1: measurement,
  ut_2: measurement,
  ut_3: measurement,
  pressure: measurement,
  band_color: z.preprocess(blankToNull, z.enum(BAND_COLORS, { error: BAND_COLOR_MESSAGE }).nullable())
    .optional(),
  mpi_result: z.preprocess(blankToNull, z.enum(MPI_RESULTS, { error: MPI_RESULT_MESSAGE }).nullable())
    .optional(),
  notes: text(5000),
  custom: z.preprocess((v) => (v === null ? {} : v), customObject()).optional(),
});
export type InspectionInput = z.infer<typeof InspectionInput>;

/** PATCH /api/pt/inspections: the same fields, the id required. */
export const InspectionUpdateInput = InspectionInput.extend({
  id: z.preprocess(blankToNull, id(REQUIRED, { coerce: true })),
});
export type InspectionUpdateInput = z.infer<typeof InspectionUpdateInput>;

/**
 * Serials as chips (a list) or pasted text: every entry is split on commas, trimmed, blanks dropped,
 * and repeats (ignoring case) collapsed to their first spelling.
 */
export function splitSerials(v: unknown): unknown {
  if (v === undefined || v === null) return [];
  const parts = typeof v === "string" ? [v] : Array.isArray(v) ? v : undefined;
  if (!parts) return v;
  const seen = new Map<string, string>();
  for (const p of parts) {
    if (typeof p !== "string" && typeof p !== "number") return v;
    for (const s of String(p).split(",")) {
      const serial = s.trim();
      if (serial && !seen.has(serial.toLowerCase())) seen.set(serial.toLowerCase(), serial);
    }
  }
  return [...seen.values()];
}

export const SerialNumbers = z.preprocess(
  splitSerials,
  z.array(z.string().max(200, "A serial number has at most 200 characters"), { error: NO_SERIALS })
    .min(1, NO_SERIALS)
    .max(MAX_BATCH_SERIALS, `At most ${MAX_BATCH_SERIALS} serial numbers per batch`),
);

/** The batch form's PDF: `{name, url}` with a data URL (JSON), or a File (multipart); blank = none. */
export const BatchAttachment = z.preprocess(
  (v) => {
    if (v === null || v === "" || v === undefined) return undefined;
    if (typeof File !== "undefined" && v instanceof File) return v.size === 0 && !v.name ? undefined : v;
    if (typeof v === "object" && !(v as { url?: unknown }).url) return undefined;
    return v;
  },
  z.union([
    z.instanceof(File),
    z.object({ name: z.string().max(255), url: z.string().max(100_000_000) }),
  ], { error: PDF_MESSAGE }).optional(),
);

/** POST /api/pt/inspections/batch. The company ids the form sends are ignored: they come from the job. */
export const BatchInput = z.object({
  job_id: requiredId,
  date: DateInput,
  serial_numbers: SerialNumbers,
  batch: text(200),
  part_id: optionalId(UNKNOWN_PART),
  imageFiles: z.preprocess(
    (v) => (v === null ? undefined : v),
    z.object({ pressure_test: BatchAttachment }, { error: PDF_MESSAGE }).optional(),
  ),
});
export type BatchInput = z.infer<typeof BatchInput>;

/** A name like `report.pdf`: an extension after a dot that is not the first character. */
export function hasPdfName(name: string): boolean {
  const base = name.split(/[\\/]/).pop() ?? "";
  return /^[^.].*\.pdf$/i.test(base);
}
