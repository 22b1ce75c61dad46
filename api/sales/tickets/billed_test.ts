import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { call, parties } from "./test_fixtures.ts";
import { BILLED_MESSAGE } from "./billed.ts";

const PATH = "/api/sales/tickets";

/** An approved invoice with one line, and an approver's and a sales-admin's tokens. */
async function invoice(env: Parameters<Parameters<typeof withEnv>[0]>[0]) {
  const { customer, rep } = await parties(env);
  const t = await makeTicket(env.tenant.db, {
    customer_id: customer.id,
    sales_rep_id: rep.id,
    status: "APP",
    isInvoice: true,
    invoice_number: "INV-00042",
    invoice_date: "2026-03-02",
    notes: "Billed as agreed",
  });
  const line = await makeLine(env.tenant.db, { ticket_id: t.id, quantity: 1 });
  const approver = (await env.userWithToken({ permissions: ["approval-authority", "sales-admin"] })).token;
  return { t, line, customer, rep, approver };
}

Deno.test("billed documents - PUT on an approved invoice changing the customer or other billed fields is 409", () =>
  withEnv(async (env) => {
    const { t, approver } = await invoice(env);
    const other = await makeCompany(env.tenant.db, { name: "Another Customer" });
    const refused = await call(env, approver, "PUT", PATH, { id: t.id, customer_id: other.id }, 409);
    assert.equal(refused.detail, `${BILLED_MESSAGE} Refused change: customer_id.`);
    for (
      const change of [{ notes: "Changed" }, { invoice_date: "2026-04-01" }, { use_min_rate_logic: false }, {
        location: "Yard 2",
      }]
    ) {
      const r = await call(env, approver, "PUT", PATH, { id: t.id, status: "APP", ...change }, 409);
      assert.match(r.detail, new RegExp(`Refused change: ${Object.keys(change)[0]}\\.`));
    }
    const got = await call(env, approver, "GET", `${PATH}/${t.id}`);
    assert.deepEqual([got.customer.id, got.notes, got.invoice_date, got.location], [
      t.customer_id,
      "Billed as agreed",
      "2026-03-02",
      "",
    ]);
  }));

Deno.test("billed documents - Signed, Billed and Paid are set straight on the invoice; fields sent unchanged pass", () =>
  withEnv(async (env) => {
    const { t } = await invoice(env);
    // Any sales user marks the invoice paid: no status change, no detour through Open.
    const { token } = await env.userWithToken({ name: "Clerk" });
    const paid = await call(env, token, "PUT", PATH, {
      id: t.id,
      status: "APP",
      invoice_date: "2026-03-02",
      notes: "Billed as agreed",
      isPaid: true,
      isSigned: true,
    });
    assert.deepEqual([
      paid.status,
      paid.isPaid,
      paid.isSigned,
      paid.isBilled,
      paid.invoice_number,
      paid.message,
    ], [
      "APP",
      true,
      true,
      false,
      "INV-00042",
      "Invoice updated",
    ]);
  }));

Deno.test("billed documents - the line endpoints refuse an invoice's lines; re-opening makes it editable again", () =>
  withEnv(async (env) => {
    const { t, line, approver } = await invoice(env);
    const put = await call(
      env,
      approver,
      "PUT",
      "/api/sales/sales",
      { id: line.id, quantity: 1, price: 1 },
      409,
    );
    assert.equal(put.detail, "Invoiced lines cannot change.");
    await call(env, approver, "DELETE", `/api/sales/sales/${line.id}`, undefined, 409);
    await call(env, approver, "POST", "/api/sales/sales/reorder", {
      ticket_id: t.id,
      items: [{ id: line.id, order: 2 }],
    }, 409);
    // The re-open path: approval authority, and the same save may correct the header.
    const reopened = await call(env, approver, "PUT", PATH, { id: t.id, status: "OPEN", notes: "Corrected" });
    assert.deepEqual([reopened.status, reopened.isInvoice, reopened.notes], ["OPEN", false, "Corrected"]);
    const saved = await call(env, approver, "PUT", "/api/sales/sales", { id: line.id, price: 55 });
    assert.equal(saved.price, 55);
    const other = await makeCompany(env.tenant.db, { name: "Another Customer" });
    assert.equal(
      (await call(env, approver, "PUT", PATH, { id: t.id, customer_id: other.id })).customer.id,
      other.id,
    );
  }));
