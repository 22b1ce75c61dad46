import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeLine, makeTicket } from "../../../db/factories.ts";
import { files, sales } from "../../../db/schema/mod.ts";
import { tokenWith } from "../inventory/test_fixtures.ts";

const PATH = "/api/sales/sales";
const enc = (s: string) => new TextEncoder().encode(s);
const pdf = (body = "line document") => enc(`%PDF-1.4\n% ${body}\n%%EOF\n`);

/** POST the multipart form with `file` (a File, or any other value of the part). */
function upload(
  env: TestEnv,
  token: string,
  id: number,
  part: File | string | null,
  host = env.host,
): Promise<Response> {
  const form = new FormData();
  if (part !== null) form.set("file", part);
  return Promise.resolve(env.app.request(`http://${host}${PATH}/${id}/attachment`, {
    method: "POST",
    headers: { host, authorization: `Bearer ${token}` },
    body: form,
  }));
}

const pdfFile = (name: string, body?: string) =>
  new File([pdf(body) as BlobPart], name, { type: "application/pdf" });

// deno-lint-ignore no-explicit-any
async function body(res: Response, status: number): Promise<any> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text);
}

const storedLine = (env: TestEnv, id: number) =>
  env.tenant.db.select().from(sales).where(eq(sales.id, id)).get();

Deno.test("line attachment - upload, read through /api/files, replace, delete", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const ticket = await makeTicket(env.tenant.db, {});
    const line = await makeLine(env.tenant.db, { ticket_id: ticket.id });

    const listed = await env.json(`${PATH}/ticket?ticket_id=${ticket.id}`, { token });
    assert.equal(listed.results[0].fileURL, null);
    assert.equal(listed.results[0].doc, null);

    const a = await body(await upload(env, token, line.id, pdfFile("Field Ticket 7.pdf", "one")), 200);
    assert.equal(a.message, "Attachment saved");
    assert.equal(a.id, line.id);
    assert.equal(a.doc, "Field Ticket 7.pdf");
    assert.ok(a.file_id > 0);
    assert.equal(a.fileURL, `/api/files/${a.file_id}`);
    assert.equal(a.quantity, line.quantity, "the rest of the line is unchanged");
    const row = await storedLine(env, line.id);
    assert.equal(row?.file_id, a.file_id);
    assert.equal(row?.doc, "Field Ticket 7.pdf");

    // the ticket's lines carry it too, and staff read the file
    const again = await env.json(`${PATH}/ticket?ticket_id=${ticket.id}`, { token });
    assert.equal(again.results[0].fileURL, a.fileURL);
    const served = await env.request(a.fileURL, { token });
    assert.equal(served.status, 200);
    assert.equal(served.headers.get("content-type"), "application/pdf");
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), pdf("one"));

    // replacing is editing the line: sales-admin's (a sales user gave it its first document)
    const staffReplace = await body(await upload(env, token, line.id, pdfFile("signed.pdf", "two")), 403);
    assert.equal(staffReplace.detail, "Only a sales admin can edit a line item.");
    const staffRemove = await env.json(`${PATH}/${line.id}/attachment`, {
      token,
      method: "DELETE",
      status: 403,
    });
    assert.equal(staffRemove.detail, "Only a sales admin can edit a line item.");
    assert.equal((await storedLine(env, line.id))?.file_id, a.file_id, "refusals change nothing");
    const admin = await tokenWith(env, ["sales-admin"]);
    // replacing: the new file and name
    const b = await body(await upload(env, admin, line.id, pdfFile("signed.pdf", "two")), 200);
    assert.notEqual(b.file_id, a.file_id);
    assert.equal(b.doc, "signed.pdf");
    assert.equal(b.fileURL, `/api/files/${b.file_id}`);
    assert.deepEqual(
      new Uint8Array(await (await env.request(b.fileURL, { token })).arrayBuffer()),
      pdf("two"),
    );
    // the old file is no longer any line's: nobody reads it
    assert.equal((await env.request(a.fileURL, { token })).status, 404);

    // deleting clears both
    const c = await env.json(`${PATH}/${line.id}/attachment`, { token: admin, method: "DELETE" });
    assert.equal(c.message, "Attachment removed");
    assert.equal(c.file_id, null);
    assert.equal(c.doc, null);
    assert.equal(c.fileURL, null);
    const cleared = await storedLine(env, line.id);
    assert.equal(cleared?.file_id, null);
    assert.equal(cleared?.doc, null);
    assert.equal((await env.request(b.fileURL, { token })).status, 404);

    // a missing line
    await body(await upload(env, token, 999999, pdfFile("x.pdf")), 404);
    await env.json(`${PATH}/999999/attachment`, { token: admin, method: "DELETE", status: 404 });
  }));

Deno.test("line attachment - not a PDF or no file is 422 at `file`, nothing stored", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const line = await makeLine(env.tenant.db, {});
    const notPdf = await body(
      await upload(env, token, line.id, new File(["hello"], "notes.pdf", { type: "application/pdf" })),
      422,
    );
    assert.deepEqual(notPdf.errors, [{ path: "file", message: "The attachment must be a PDF file" }]);
    const missing = await body(await upload(env, token, line.id, null), 422);
    assert.deepEqual(missing.errors, [{ path: "file", message: "Required" }]);
    const text = await body(await upload(env, token, line.id, "%PDF-1.4 as a text field"), 422);
    assert.deepEqual(text.errors, [{ path: "file", message: "Required" }]);
    assert.equal((await env.tenant.db.select().from(files).all()).length, 0);
    assert.equal((await storedLine(env, line.id))?.file_id, null);
  }));

Deno.test("line attachment - a file over MAX_UPLOAD_MB is 413", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const line = await makeLine(env.tenant.db, {});
    const big = new Uint8Array(20 * 1024).fill(32);
    big.set(pdf());
    const res = await body(
      await upload(env, token, line.id, new File([big as BlobPart], "big.pdf", { type: "application/pdf" })),
      413,
    );
    assert.equal(res.detail, "The file is larger than 0.01 MB.");
    const huge = new Uint8Array(400 * 1024).fill(32);
    huge.set(pdf());
    await body(
      await upload(
        env,
        token,
        line.id,
        new File([huge as BlobPart], "huge.pdf", { type: "application/pdf" }),
      ),
      413,
    );
    assert.equal((await storedLine(env, line.id))?.file_id, null);
    await body(await upload(env, token, line.id, pdfFile("small.pdf")), 200);
  }, { MAX_UPLOAD_MB: "0.01" }));

Deno.test("line attachment - invoiced lines cannot change", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, []);
    const invoice = await makeTicket(env.tenant.db, {
      status: "APP",
      isInvoice: true,
      invoice_number: "INV-9",
    });
    const line = await makeLine(env.tenant.db, { ticket_id: invoice.id });
    const res = await body(await upload(env, token, line.id, pdfFile("late.pdf")), 409);
    assert.equal(res.detail, "Invoiced lines cannot change.");
    assert.equal((await env.tenant.db.select().from(files).all()).length, 0, "no stray file");
    // one attached before invoicing stays
    const open = await makeLine(env.tenant.db, {});
    const attached = await body(await upload(env, token, open.id, pdfFile("early.pdf")), 200);
    await env.tenant.db.update(sales).set({ ticket_id: invoice.id }).where(eq(sales.id, open.id));
    const del = await env.json(`${PATH}/${open.id}/attachment`, {
      token: await tokenWith(env, ["sales-admin"]),
      method: "DELETE",
      status: 409,
    });
    assert.equal(del.detail, "Invoiced lines cannot change.");
    assert.equal((await storedLine(env, open.id))?.file_id, attached.file_id);
  }));

Deno.test("line attachment - customer users and other tenants are refused", () =>
  withEnv(async (env) => {
    const staff = await tokenWith(env, []);
    const line = await makeLine(env.tenant.db, {});
    const attached = await body(await upload(env, staff, line.id, pdfFile("ours.pdf")), 200);

    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    const outsider = await tokenWith(env, ["sales-admin"], customer.id);
    const refused = await body(await upload(env, outsider, line.id, pdfFile("theirs.pdf", "x")), 403);
    assert.equal(refused.detail, "Sales & Inventory is for the company's own staff.");
    await env.json(`${PATH}/${line.id}/attachment`, { token: outsider, method: "DELETE", status: 403 });
    assert.equal((await env.request(attached.fileURL, { token: outsider })).status, 404);

    // another tenant: no such line or file there, and its token is no good here
    await env.addTenant("other", "other.test");
    const other = await env.login(undefined, undefined, "other.test");
    await body(await upload(env, other, line.id, pdfFile("x.pdf", "y"), "other.test"), 404);
    assert.equal((await env.request(attached.fileURL, { token: other, host: "other.test" })).status, 404);
    assert.equal((await env.request(attached.fileURL, { token: other })).status, 401);
    await body(await upload(env, other, line.id, pdfFile("x.pdf", "z")), 401);

    const row = await storedLine(env, line.id);
    assert.equal(row?.file_id, attached.file_id);
    assert.equal(row?.doc, "ours.pdf");
    // staff of the owner company still read it
    assert.equal((await env.request(attached.fileURL, { token: staff })).status, 200);
  }));
