import { AppError, invalid } from "../../../lib/errors.ts";
import type { ZipLimits } from "../../lib/zip.ts";
import { MAX_BATCH_ROWS } from "../items/schemas.ts";

/**
 * What reading one uploaded spreadsheet may cost. A real 5,000-row, 12-column xlsx unpacks to about
 * 3 MB and about 60,000 cells, so these leave a wide margin for honest files while keeping one parse
 * to a few hundred MB of memory and a few seconds at worst.
 */
export const UNREADABLE = "The file must be an .xlsx or .csv spreadsheet";
export const TOO_LARGE = "The spreadsheet is too large to read.";
/** The batch limit plus a header row. */
export const MAX_ROWS = MAX_BATCH_ROWS + 1;
export const ZIP_LIMITS: ZipLimits = { maxEntries: 1000, maxInflated: 40 * 1024 * 1024 };
/**
 * Cells in all of a workbook's sheets (exceljs reads every sheet, and each cell costs it ~1 KB:
 * decision 010).
 */
export const MAX_CELLS = 250_000;

export const unreadable = () => invalid("file", UNREADABLE);
export const tooLarge = () => new AppError("too_large", TOO_LARGE);
export const tooManyRows = () => invalid("file", `At most ${MAX_BATCH_ROWS} rows per upload`);
