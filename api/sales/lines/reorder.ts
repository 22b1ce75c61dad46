import { and, eq } from "drizzle-orm";
import { sales } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, type FieldError } from "../../../lib/errors.ts";
import { parse } from "../../lib/validate.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { INVOICED_MESSAGE, ReorderInput } from "./schemas.ts";
import { requireUnbilled } from "../tickets/billed.ts";
import { ticketFor } from "./query.ts";
import { inJson } from "../../../db/in_json.ts";

export const NOT_ON_TICKET = "Not a line of this ticket";

/**
 * POST /api/sales/sales/reorder `{ticket_id, items: [{id, order}]}`: sets every listed line's order in
 * one transaction. Every id must be a line of that ticket (422 naming each other one); invoice lines
 * cannot be reordered (409).
 */
export async function reorderLines(ctx: Ctx, body: unknown): Promise<{ updated: number; message: string }> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(ReorderInput, body);
  const updated = await ctx.tdb.write(async (tx) => {
    requireUnbilled((await ticketFor(tx, input.ticket_id)).ticket, INVOICED_MESSAGE);
    const ids = [...new Set(input.items.map((i) => i.id))];
    const own = new Set(
      ids.length
        ? (await tx.select({ id: sales.id }).from(sales)
          .where(and(eq(sales.ticket_id, input.ticket_id), inJson(sales.id, ids)))).map((r) => r.id)
        : [],
    );
    const errors: FieldError[] = input.items.flatMap((it, i) =>
      own.has(it.id) ? [] : [{ path: `items.${i}.id`, message: NOT_ON_TICKET }]
    );
    if (errors.length) throw new AppError("invalid", `${errors[0].path}: ${errors[0].message}`, errors);
    const at = nowStamp();
    for (const it of input.items) {
      await tx.update(sales).set({ order: it.order, updated_at: at }).where(eq(sales.id, it.id));
    }
    return input.items.length;
  });
  return { updated, message: "Line items reordered" };
}
