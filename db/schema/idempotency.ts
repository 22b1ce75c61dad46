import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The answers of writes sent with an `Idempotency-Key` (offline sync, retried requests): written in the
 * same transaction as the record, so a retry of an acknowledged write replays its answer and creates
 * nothing. Keys are per user; rows older than a week are deleted as new keys arrive.
 */
export const idempotency_keys = sqliteTable("idempotency_keys", {
  user_id: integer("user_id").notNull(),
  key: text("key").notNull(),
  /** sha-256 of the route and the parsed request: the same key with another request is refused */
  request_hash: text("request_hash").notNull(),
  /** the answer's JSON (only a successful answer, 200, is remembered: a refusal changed nothing) */
  body: text("body").notNull(),
  /** epoch milliseconds */
  created_at: integer("created_at").notNull(),
}, (t) => [
  primaryKey({ columns: [t.user_id, t.key] }),
  index("idempotency_keys_created_idx").on(t.created_at),
]);
