import type { Context } from "hono";
import { AppError } from "../../lib/errors.ts";

/**
 * Record versions and `If-Match` (decision 038). Every record a form edits has a `version`, bumped by its
 * table's trigger when an edited column changes (migration 0033); its ETag is the strong `"<version>"`.
 * A write carrying `If-Match` is refused with 412 and the record as it is now when the tag names another
 * version; a write without one is not checked (the spec's calls keep working as they did).
 */

export const STALE_MESSAGE = "Someone else changed this record after you opened it, so nothing was saved.";

/** A record's ETag: strong, since a version names exactly one state of the record's fields. */
export const etagOf = (version: number) => `"${version}"`;

/**
 * RFC 9110 13.1.1: `*` matches any current record; otherwise one of the listed entity tags must match the
 * record's by strong comparison, so a weak tag (`W/"3"`) never matches. No header (or a blank one) sets no
 * condition.
 */
export function ifMatchPasses(header: string | undefined, version: number): boolean {
  const h = header?.trim();
  if (!h || h === "*") return true;
  const tag = etagOf(version);
  return h.split(",").some((t) => t.trim() === tag);
}

/**
 * Called inside the write transaction that changes or deletes the record, after reading it: the queue runs
 * one write at a time, so of two saves sent with the same tag only the first passes. Refuses with 412
 * `{detail, current}` (`current` as the record's GET answers it, read in the same transaction) and the
 * current ETag.
 */
export async function requireMatch(
  ctx: { ifMatch?: string },
  version: number,
  current: () => Promise<unknown>,
): Promise<void> {
  if (ifMatchPasses(ctx.ifMatch, version)) return;
  throw new AppError("precondition_failed", STALE_MESSAGE, undefined, { ETag: etagOf(version) }, {
    current: await current(),
  });
}

/** A record's JSON answer with its ETag (the GET of one record, and a save's answer). */
export function withEtag<T>(c: Context, out: T) {
  const version = (out as { version?: unknown } | null)?.version;
  return c.json(out, 200, typeof version === "number" ? { ETag: etagOf(version) } : undefined);
}
