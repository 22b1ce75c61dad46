import { AppError } from "../../lib/errors.ts";

/** The stored form of "now": ISO 8601 to the second, UTC (what the column defaults write). */
export const nowStamp = () => new Date().toISOString().slice(0, 19) + "Z";

/** true for SQLite's foreign key failure, however deep the driver wrapped it. */
export function isForeignKeyError(e: unknown): boolean {
  for (let x = e as { message?: string; cause?: unknown } | undefined; x; x = x.cause as typeof x) {
    if (String(x.message).includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}

/** true when the disk (or the database's own size limit) is full, however deep the driver wrapped it. */
export function isDiskFull(e: unknown): boolean {
  for (
    let x = e as { message?: string; code?: string; cause?: unknown } | undefined;
    x;
    x = x.cause as typeof x
  ) {
    if (
      x.code === "SQLITE_FULL" || x.code === "ENOSPC" ||
      /database or disk is full|No space left/.test(String(x.message))
    ) {
      return true;
    }
  }
  return false;
}

export const diskFullError = () =>
  new AppError(
    "insufficient_storage",
    "The server's disk is full, so nothing was saved. Reading still works; ask your administrator to free space, then try again.",
  );
