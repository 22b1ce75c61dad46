import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { rejections, tickets } from "../../../db/schema/mod.ts";
import type { Ctx } from "../../lib/context.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { nowStamp } from "../../lib/db_helpers.ts";
import { queryBool } from "../../lib/list_query.ts";
import { parse } from "../../lib/validate.ts";
import { requireAbility } from "../../../lib/policy.ts";
import { findTicket } from "../tickets/service.ts";
import { rejectionsOf } from "../tickets/service/query.ts";

export const COMMENT_REQUIRED = "Comment is required";
export const MARK_RESOLVED = "Mark it resolved to submit.";
export const APPROVERS_REJECT = "Only a user with approval authority can reject a ticket awaiting approval.";

export const RejectionListQuery = z.object({ ticket_id: z.coerce.number().int().positive() });

const id = z.preprocess(
  (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
  z.number({ error: "Required" }).int().positive(),
);
const RejectionInput = z.object({
  ticket_id: id,
  comment: z.string().trim().max(5000).optional().default(""),
  resolved: queryBool.optional().default(false),
});

/** GET /api/sales/rejections?ticket_id=: a ticket's rejections, newest first. */
export async function listRejections(ctx: Ctx, q: z.infer<typeof RejectionListQuery>) {
  requireAbility(ctx.user, "sales.read");
  await findTicket(ctx.db, ctx.user, q.ticket_id);
  const results = await rejectionsOf(ctx.db, q.ticket_id);
  return { results, total: results.length };
}

/**
 * POST /api/sales/rejections. In RFA an approver rejects with a comment: unresolved sends the ticket
 * back to RFB, resolved leaves it awaiting approval. In RFB anyone records the resolution (resolved
 * must be true) and the ticket stays in RFB. Other statuses have nothing to reject (409).
 */
export async function saveRejection(ctx: Ctx, body: unknown): Promise<{ redirect: string; message: string }> {
  requireAbility(ctx.user, "sales.read");
  const input = parse(RejectionInput, body);
  return await ctx.tdb.write(async (tx) => {
    const t = await findTicket(tx, ctx.user, input.ticket_id);
    if (t.status === "RFA") {
      requireAbility(ctx.user, "sales.approve", APPROVERS_REJECT);
      if (!input.comment) throw invalid("comment", COMMENT_REQUIRED);
    } else if (t.status === "RFB") {
      if (!input.resolved) throw invalid("resolved", MARK_RESOLVED);
    } else {
      throw new AppError("conflict", `A ${t.status} ticket cannot be rejected.`);
    }
    await tx.insert(rejections).values({
      ticket_id: t.id,
      company_id: ctx.user.company_id,
      created_by_id: ctx.user.id,
      comment: input.comment,
      resolved: input.resolved,
    });
    if (t.status === "RFA" && !input.resolved) {
      await tx.update(tickets).set({ status: "RFB", updated_at: nowStamp() })
        .where(and(eq(tickets.id, t.id), eq(tickets.company_id, ctx.user.company_id)));
      return { redirect: "/sales/ready-for-billing", message: "Ticket rejected" };
    }
    return t.status === "RFA"
      ? { redirect: "/sales/approval", message: "Rejection saved" }
      : { redirect: "/sales/ready-for-billing", message: "Rejection saved" };
  });
}
