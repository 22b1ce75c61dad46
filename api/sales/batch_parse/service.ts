import type { Ctx } from "../../lib/context.ts";
import { invalid } from "../../../lib/errors.ts";
import { tooLarge } from "../../files/service.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { parseInWorker } from "./worker_pool.ts";

export { cellText } from "./cells.ts";
export { UNREADABLE } from "./limits.ts";

export interface ParsedSheet {
  rows: string[][];
}

/**
 * POST /api/sales/batch/parse: a chosen spreadsheet as text cells for the batch upload grid, nothing
 * stored. xlsx: its first sheet (dates as YYYY-MM-DD, numbers as plain text); otherwise a CSV (RFC
 * 4180 quoting; `;` or tab separated when its first line says so). Sales-admin only, like the uploads
 * the grid feeds. Read in a worker within limits (limits.ts, worker_pool.ts): 413 when the file
 * unpacks to too much, 422 past 5000 rows or when it takes too long, 429 when the readers are busy.
 */
export async function parseBatchFile(ctx: Ctx, file: unknown): Promise<ParsedSheet> {
  requireAbility(ctx.user, "sales.admin");
  if (!(file instanceof File)) throw invalid("file", "Choose a file");
  const maxMb = ctx.config.MAX_UPLOAD_MB;
  if (file.size > maxMb * 1024 * 1024) throw tooLarge(maxMb);
  return { rows: await parseInWorker(new Uint8Array(await file.arrayBuffer())) };
}
