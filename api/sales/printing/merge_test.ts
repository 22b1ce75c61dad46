import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { storeFile } from "../../files/service.ts";
import { renderPdf } from "../../lib/pdf.ts";
import { MERGE_BUSY, MERGE_LIMITS, mergeLoad, mergePdfs } from "../../lib/pdf_merge.ts";
import { until } from "../../../scripts/testing/until.ts";
import { gate, loopGap, manyPagesPdf } from "../../lib/pdf_merge_fixture.ts";

/**
 * Ticket PDFs with include_attachments append stored PDFs with pdf-lib. Stored files were not all
 * checked at upload (older ones never were), and a small file can still cost pdf-lib seconds of
 * synchronous work: the merge must not hold the thread every tenant is served on.
 */

/** A ticket whose one line carries `data` as its attached PDF. */
async function ticketWithAttachment(env: TestEnv, data: Uint8Array) {
  const db = env.tenant.db;
  const file_id = await env.tenant.write((tx) =>
    storeFile(tx, { name: "cert.pdf", content_type: "application/pdf", data })
  );
  const ticket = await makeTicket(db, { ticket_number: "T-09001" });
  await makeLine(db, { ticket_id: ticket.id, file_id });
  return ticket;
}

const printWithFiles = (env: TestEnv, id: number, token: string) =>
  env.request(`/api/sales/ticketpdf?ticket_id=${id}&include_attachments=true`, { token });

Deno.test("ticket pdf - a hostile attachment is merged off the event loop: another tenant is served meanwhile", () =>
  withEnv(async (env) => {
    const token = await env.login();
    await env.addTenant("beta", "beta.test");
    const betaToken = await env.login(undefined, undefined, "beta.test");
    // 15,000 blank pages, 0.9 MB: pdf-lib's copyPages alone holds its thread for seconds.
    const ticket = await ticketWithAttachment(env, manyPagesPdf(15_000));
    // This test is about the event loop, not the time limit: room for a slow machine.
    const limit = MERGE_LIMITS.timeoutMs;
    MERGE_LIMITS.timeoutMs = 120_000;
    const order: string[] = [];
    const { result: [printed, listed], gap } = await loopGap(async () => {
      const print = printWithFiles(env, ticket.id, token).then((r) => (order.push("pdf"), r));
      // The list is asked for once the merge holds its worker (not before: then it would prove nothing).
      await until(() => mergeLoad().active === 1, "the merge started");
      const list = env.request("/api/sales/items", { token: betaToken, host: "beta.test" })
        .then((r) => (order.push("list"), r));
      return await Promise.all([print, list]);
    }).finally(() => (MERGE_LIMITS.timeoutMs = limit));
    const bytes = new Uint8Array(await printed.arrayBuffer());
    assert.equal(printed.status, 200, new TextDecoder().decode(bytes.subarray(0, 300)));
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    assert.equal(
      (await PDFDocument.load(bytes)).getPageCount(),
      1 + 15_000,
      "the ticket and the 15,000 pages",
    );
    assert.equal(listed.status, 200);
    await listed.body?.cancel();
    assert.deepEqual(order, ["list", "pdf"], "the other tenant's list answered during the merge");
    // On the request thread this merge holds the loop for seconds; in a worker, ticks keep coming (the
    // margin is for a busy machine).
    assert.ok(gap < 1000, `the event loop stalled for ${Math.round(gap)} ms`);
  }));

Deno.test("ticket pdf - merges beyond the bound answer 429 with Retry-After; a print goes through afterwards", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const cert = await renderPdf((doc) => void doc.text("Certificate"));
    const ticket = await ticketWithAttachment(env, cert);
    // Every slot, running and waiting, held by merges whose plan waits for the gate.
    const held = gate();
    const holders = Array.from(
      { length: MERGE_LIMITS.running + MERGE_LIMITS.waiting },
      () => mergePdfs([cert], async () => (await held.wait, cert)),
    );
    const busy = await printWithFiles(env, ticket.id, token);
    assert.equal(busy.status, 429);
    assert.equal(busy.headers.get("retry-after"), String(MERGE_LIMITS.retryAfterSeconds));
    assert.equal((await busy.json()).detail, MERGE_BUSY);
    const plain = await env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}`, { token });
    assert.equal(plain.status, 200, "without attachments nothing is merged, nothing waits");
    await plain.body?.cancel();

    held.open();
    await Promise.all(holders);
    const after = await printWithFiles(env, ticket.id, token);
    assert.equal(after.status, 200);
    await after.body?.cancel();
  }));
