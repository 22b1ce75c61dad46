/** The stored form of "now": ISO 8601 to the second, UTC (what the column defaults write). */
export const nowStamp = () => new Date().toISOString().slice(0, 19) + "Z";

/** true for SQLite's foreign key failure, however deep the driver wrapped it. */
export function isForeignKeyError(e: unknown): boolean {
  for (let x = e as { message?: string; cause?: unknown } | undefined; x; x = x.cause as typeof x) {
    if (String(x.message).includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}
