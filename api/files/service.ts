import { and, eq } from "drizzle-orm";
import { Buffer } from "node:buffer";
import {
  files,
  inspection_photos,
  inspection_signatures,
  inspections,
  sales,
  type StoredFile,
} from "../../db/schema/mod.ts";
import type { Tx } from "../../db/client.ts";
import type { Ctx } from "../lib/context.ts";
import { AppError, invalid } from "../../lib/errors.ts";
import { ptScope } from "../pt/scope.ts";
import { can } from "../../lib/policy.ts";
import { inflateAtMost, TooComplex } from "../lib/inflate.ts";
import { findPdfScript } from "../lib/pdf_scripts_check.ts";
import { textProblem } from "../lib/validate.ts";

export interface Upload {
  name: string;
  content_type: string;
  data: Uint8Array;
}

/** The path a stored file is served at (what `custom.pressure_test_pdf` holds). */
export const fileUrl = (id: number) => `/api/files/${id}`;

export async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Stores a file once per content, inside the caller's transaction: the same bytes again (another batch
 * with the same PDF) answer the existing row's id, keeping its first name.
 */
export async function storeFile(tx: Tx, upload: Upload): Promise<number> {
  const sha256 = await sha256Hex(upload.data);
  const found = await tx.select({ id: files.id }).from(files).where(eq(files.sha256, sha256)).get();
  if (found) return found.id;
  const [row] = await tx.insert(files).values({
    sha256,
    name: upload.name,
    content_type: upload.content_type,
    size: upload.data.byteLength,
    data: Buffer.from(upload.data.buffer, upload.data.byteOffset, upload.data.byteLength),
  }).returning({ id: files.id });
  return row.id;
}

/** The inspections the caller sees (ptScope), as a WHERE clause. */
const inspectionSeen = (ctx: Ctx) =>
  ptScope(ctx.user, {
    jobId: inspections.job_id,
    inspectionCompanyId: inspections.inspection_company_id,
    customerCompanyId: inspections.customer_company_id,
    operatorCompanyId: inspections.operator_company_id,
  });

/**
 * Who may read a file: anyone allowed to see at least one record pointing at it. Each owner of files
 * adds its check here (and its column to `deleteFileIfUnused`); the checks apply the owner's own
 * scoping in the query.
 */
const READERS: ((ctx: Ctx, fileId: number) => Promise<boolean>)[] = [
  // An inspection's pressure-test PDF: the inspections the caller sees.
  async (ctx, fileId) =>
    !!(await ctx.db.select({ id: inspections.id }).from(inspections).where(and(
      eq(inspections.pressure_test_file_id, fileId),
      inspectionSeen(ctx),
    )).limit(1).get()),
  // An inspection's photo or signature: the same inspections.
  async (ctx, fileId) =>
    !!(await ctx.db.select({ id: inspections.id }).from(inspection_photos)
      .innerJoin(inspections, eq(inspections.id, inspection_photos.inspection_id))
      .where(and(eq(inspection_photos.file_id, fileId), inspectionSeen(ctx))).limit(1).get()),
  async (ctx, fileId) =>
    !!(await ctx.db.select({ id: inspections.id }).from(inspection_signatures)
      .innerJoin(inspections, eq(inspections.id, inspection_signatures.inspection_id))
      .where(and(eq(inspection_signatures.file_id, fileId), inspectionSeen(ctx))).limit(1).get()),
  // A sales line's document: the owner company's own staff (Sales & Inventory readers), for lines of
  // their company.
  async (ctx, fileId) =>
    can(ctx.user, "sales.read") &&
    !!(await ctx.db.select({ id: sales.id }).from(sales).where(and(
      eq(sales.file_id, fileId),
      eq(sales.company_id, ctx.user.company_id),
    )).limit(1).get()),
];

/**
 * Deletes a file no record points at any more, inside the caller's transaction (a removed photo's
 * bytes go with it unless the same image is stored elsewhere: files are shared by content).
 */
export async function deleteFileIfUnused(tx: Tx, fileId: number): Promise<void> {
  const users = [
    tx.select({ id: inspections.id }).from(inspections).where(eq(inspections.pressure_test_file_id, fileId)),
    tx.select({ id: inspection_photos.id }).from(inspection_photos).where(
      eq(inspection_photos.file_id, fileId),
    ),
    tx.select({ id: inspection_signatures.inspection_id }).from(inspection_signatures)
      .where(eq(inspection_signatures.file_id, fileId)),
    tx.select({ id: sales.id }).from(sales).where(eq(sales.file_id, fileId)),
  ];
  for (const q of users) if (await q.limit(1).get()) return;
  await tx.delete(files).where(eq(files.id, fileId));
}

/** GET /api/files/{id}: the file, or 404 alike for a missing file and one the caller may not see. */
export async function readFile(ctx: Ctx, id: number): Promise<StoredFile> {
  for (const mayRead of READERS) {
    if (await mayRead(ctx, id)) {
      const file = await ctx.db.select().from(files).where(eq(files.id, id)).get();
      if (file) return file;
      break;
    }
  }
  throw new AppError("not_found", "File not found.");
}

export const tooLarge = (maxMb: number) => new AppError("too_large", `The file is larger than ${maxMb} MB.`);

const PDF_MAGIC = "%PDF-";

/** The refusal of an uploaded PDF that would run something when opened (decision 042). */
export const pdfScriptMessage = (found: string) =>
  `The PDF holds JavaScript or an action that starts a program (${found}); ` +
  "save it without them (for example, print it to a new PDF) and upload it again";
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?);base64,/i;

/**
 * What a PDF's object and cross-reference streams may unpack to. pdf-lib inflates every one of them
 * whenever it loads the file (to append it to a report), all at once and on the request thread; they
 * hold only the document's structure (a few MB even for hundreds of scanned pages), never its images.
 */
export const MAX_PDF_STRUCTURE_MB = 64;
export const PDF_TOO_COMPLEX =
  `The PDF unpacks to more than ${MAX_PDF_STRUCTURE_MB} MB of document structure.`;
/**
 * The object and cross-reference streams of a PDF with how many FlateDecode filters each has (the
 * other filters shrink their data or are not used for structure, and are left alone).
 */
function* structureStreams(pdf: Uint8Array): Generator<{ data: Uint8Array; flates: number }> {
  // One character per byte, so offsets in the text are offsets in the file.
  const text = new TextDecoder("latin1").decode(pdf);
  for (const m of text.matchAll(/\/Type\s*\/(?:ObjStm|XRef)\b/g)) {
    const keyword = text.indexOf("stream", m.index);
    if (keyword < 0) break;
    const dict = text.slice(Math.max(0, text.lastIndexOf(" obj", m.index)), keyword);
    let start = keyword + "stream".length;
    if (text[start] === "\r") start++;
    if (text[start] === "\n") start++;
    const length = Number(/\/Length\s+(\d+)(?![\d\s]*R)/.exec(dict)?.[1] ?? NaN);
    const end = start + length <= text.length ? start + length : text.indexOf("endstream", start);
    const filters = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1].match(/\/[A-Za-z0-9]+/g) ?? [];
    if (end < start || filters.some((f) => f !== "/FlateDecode" && f !== "/Fl")) continue;
    yield { data: pdf.subarray(start, end), flates: filters.length };
  }
}

/**
 * 413 when the PDF's structure unpacks past MAX_PDF_STRUCTURE_MB, counting every filter's output; answers the
 * unpacked object streams (what a scan for scripts reads when pdf-lib cannot load the file).
 */
async function checkPdfStructure(pdf: Uint8Array): Promise<Uint8Array[]> {
  let budget = MAX_PDF_STRUCTURE_MB * 1024 * 1024;
  const unpacked: Uint8Array[] = [];
  try {
    for (const s of structureStreams(pdf)) {
      let data = s.data;
      for (let k = 0; k < s.flates; k++) {
        data = await inflateAtMost(data, budget);
        budget -= data.length;
      }
      unpacked.push(data);
    }
    return unpacked;
  } catch (e) {
    if (e instanceof TooComplex) throw new AppError("too_large", PDF_TOO_COMPLEX);
    throw e;
  }
}

/**
 * The PDF of an upload form, as `{name, url}` (a base64 data URL) or a multipart File: checked against
 * the size limit (413), for the PDF signature (422 at `path`) and for what its structure unpacks to
 * (413: a zip bomb inside a PDF would otherwise go off when a report appends it), and for scripts and
 * launch actions (422 at `path`: `pdfScriptMessage`); its name follows the free-text rule (no direction
 * overrides or invisible characters). Other file-name rules are the form's own.
 */
export async function pdfUpload(
  source: File | { name: string; url: string },
  maxMb: number,
  path: string,
  message: string,
): Promise<Upload> {
  const limit = maxMb * 1024 * 1024;
  const bad = () => invalid(path, message);
  let data: Uint8Array;
  if (source instanceof File) {
    if (source.size > limit) throw tooLarge(maxMb);
    data = new Uint8Array(await source.arrayBuffer());
  } else {
    const head = DATA_URL.exec(source.url.slice(0, 256));
    if (!head) throw bad();
    const b64 = source.url.slice(head[0].length).replace(/\s+/g, "");
    if (Math.floor(b64.length * 3 / 4) - 2 > limit) throw tooLarge(maxMb);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw bad();
    data = new Uint8Array(Buffer.from(b64, "base64"));
  }
  if (data.byteLength > limit) throw tooLarge(maxMb);
  if (new TextDecoder().decode(data.subarray(0, PDF_MAGIC.length)) !== PDF_MAGIC) throw bad();
  const name = source.name.split(/[\\/]/).pop()!;
  // The name is shown as the link to the file: the text rule of every field (decision 042).
  const nameProblem = textProblem(name, "free");
  if (nameProblem) throw invalid(path, `File name: ${nameProblem}`);
  const script = await findPdfScript(data, await checkPdfStructure(data));
  if (script) throw invalid(path, pdfScriptMessage(script));
  return { name, content_type: "application/pdf", data };
}
