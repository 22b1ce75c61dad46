import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeTicket } from "../../../db/factories.ts";
import { tickets } from "../../../db/schema/mod.ts";
import { call, parties } from "../tickets/test_fixtures.ts";

const PATH = "/api/sales/rejections";

Deno.test("rejections - in RFA an approver rejects with a comment; unresolved sends it back to RFB", () =>
  withEnv(async (env) => {
    const { customer, token } = await parties(env);
    const { user: boss, token: approver } = await env.userWithToken({
      name: "Ann Approver",
      permissions: ["approval-authority"],
    });
    const t = await makeTicket(env.tenant.db, { customer_id: customer.id, status: "RFA" });
    await call(env, token, "POST", PATH, { ticket_id: t.id, comment: "Wrong rate", resolved: false }, 403);
    const missing = await call(env, approver, "POST", PATH, { ticket_id: t.id, comment: "  " }, 422);
    assert.deepEqual(missing.errors, [{ path: "comment", message: "Comment is required" }]);
    const kept = await call(env, approver, "POST", PATH, {
      ticket_id: t.id,
      comment: "Looks fine",
      resolved: true,
    });
    assert.equal(kept.redirect, "/sales/approval");
    const status = async () =>
      (await env.tenant.db.select().from(tickets).where(eq(tickets.id, t.id)).get())!.status;
    assert.equal(await status(), "RFA");
    const back = await call(env, approver, "POST", PATH, {
      ticket_id: t.id,
      comment: "Wrong rate",
      resolved: false,
    });
    assert.equal(back.redirect, "/sales/ready-for-billing");
    assert.equal(await status(), "RFB");
    const list = await call(env, token, "GET", `${PATH}?ticket_id=${t.id}`);
    assert.deepEqual(list.results.map((r: { comment: string }) => r.comment), ["Wrong rate", "Looks fine"]);
    assert.deepEqual(list.results[0].created_by, { id: boss.id, name: "Ann Approver" });
    const detail = await call(env, token, "GET", `/api/sales/tickets/${t.id}`);
    assert.equal(detail.rejections[0].comment, "Wrong rate");
    const listed = await call(env, token, "GET", "/api/sales/tickets?ticketFlowFilter=RFB");
    assert.equal(listed.results[0].disputed, true);
  }));

Deno.test("rejections - in RFB anyone records the resolution (resolved required); other statuses 409", () =>
  withEnv(async (env) => {
    const { customer, token } = await parties(env);
    const t = await makeTicket(env.tenant.db, { customer_id: customer.id, status: "RFB" });
    const r = await call(
      env,
      token,
      "POST",
      PATH,
      { ticket_id: t.id, comment: "fixed", resolved: false },
      422,
    );
    assert.equal(r.detail, "Mark it resolved to submit.");
    const ok = await call(env, token, "POST", PATH, { ticket_id: t.id, comment: "fixed", resolved: true });
    assert.equal(ok.redirect, "/sales/ready-for-billing");
    assert.equal(
      (await env.tenant.db.select().from(tickets).where(eq(tickets.id, t.id)).get())!.status,
      "RFB",
    );
    const open = await makeTicket(env.tenant.db, { customer_id: customer.id });
    await call(env, token, "POST", PATH, { ticket_id: open.id, comment: "x", resolved: true }, 409);
    await call(env, token, "POST", PATH, { ticket_id: 999999, comment: "x" }, 404);
    await call(env, token, "GET", `${PATH}?ticket_id=999999`, undefined, 404);
  }));
