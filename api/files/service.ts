import { and, eq } from "drizzle-orm";
import { Buffer } from "node:buffer";
import { files, inspections, sales, type StoredFile } from "../../db/schema/mod.ts";
import type { Tx } from "../../db/client.ts";
import type { Ctx } from "../lib/context.ts";
import { AppError, invalid } from "../lib/errors.ts";
import { ptScope } from "../pt/scope.ts";

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

/**
 * Who may read a file: anyone allowed to see at least one record pointing at it. Each owner of files
 * adds its check here (line documents, logos, ... when they arrive); the checks apply the owner's
 * own scoping in the query.
 */
const READERS: ((ctx: Ctx, fileId: number) => Promise<boolean>)[] = [
  // An inspection's pressure-test PDF: the inspections the caller sees (ptScope).
  async (ctx, fileId) =>
    !!(await ctx.db.select({ id: inspections.id }).from(inspections).where(and(
      eq(inspections.pressure_test_file_id, fileId),
      ptScope(ctx.user, {
        jobId: inspections.job_id,
        inspectionCompanyId: inspections.inspection_company_id,
        customerCompanyId: inspections.customer_company_id,
        operatorCompanyId: inspections.operator_company_id,
      }),
    )).limit(1).get()),
  // A sales line's document: the owner company's own staff (Sales & Inventory readers), for lines of
  // their company.
  async (ctx, fileId) =>
    ctx.user.company.isOwner &&
    !!(await ctx.db.select({ id: sales.id }).from(sales).where(and(
      eq(sales.file_id, fileId),
      eq(sales.company_id, ctx.user.company_id),
    )).limit(1).get()),
];

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
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?);base64,/i;

/**
 * The PDF of an upload form, as `{name, url}` (a base64 data URL) or a multipart File: checked against
 * the size limit (413) and for the PDF signature (422 at `path`). File-name rules are the form's own.
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
  return { name: source.name.split(/[\\/]/).pop()!, content_type: "application/pdf", data };
}
