import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { pdfImages, pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeInspection, makeJob } from "../../../db/factories.ts";
import { companies, inspection_photos, inspection_signatures } from "../../../db/schema/mod.ts";
import { JPEG_40X30, png } from "../../../scripts/testing/images.ts";
import { storeFile } from "../../files/service.ts";
import { answer, imageFile, sendPhoto } from "./media_fixture.ts";
import { PHOTO_UNREADABLE } from "./report_media.ts";

Deno.test("inspection report - photos with their captions and the signature with signer and time", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await db.update(companies).set({ settings: { timeZone: "America/Chicago" } }).where(eq(companies.id, 1));
    const job = await makeJob(db);
    const inspection = await makeInspection(db, { job_id: job.id, serial_number: "SN-PHOTO" });
    const { token } = await env.userWithToken({
      company_id: 1,
      name: "Dwayne Carter",
      permissions: ["job-admin"],
    });
    await answer(await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30), "Seat pitting"), 200);
    await answer(await sendPhoto(env, token, inspection.id, imageFile(png(120, 90), "p.png")), 200);
    await answer(await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30.slice(0, -1)), "cut"), 422);
    const form = new FormData();
    form.set("file", imageFile(png(600, 200), "signature.png", "image/png"));
    await answer(
      await env.app.request(`http://${env.host}/api/pt/inspections/${inspection.id}/signature`, {
        method: "PUT",
        headers: { host: env.host, authorization: `Bearer ${token}` },
        body: form,
      }),
      200,
    );
    // 18:05 UTC on a January day is 12:05 in Chicago.
    await db.update(inspection_signatures).set({ signed_at: "2026-01-15T18:05:00Z" });

    const customer = (await env.userWithToken({ company_id: job.customer_company_id })).token;
    const forCustomer = await env.request(`/api/pt/inspections/${inspection.id}/report`, { token: customer });
    assert.equal(forCustomer.status, 200);
    assert.equal((await pdfImages(new Uint8Array(await forCustomer.arrayBuffer()))).length, 5);
    // Times are on the reader's company clock.
    const res = await env.request(`/api/pt/inspections/${inspection.id}/report`, { token });
    assert.equal(res.status, 200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = pdfText(bytes);
    assert.match(text, /Photos \(2\)/);
    assert.match(text, /1\. Seat pitting/);
    assert.match(text, /^2\.$/m);
    assert.match(text, /Inspector's Signature/);
    assert.match(text, /Signed by Dwayne Carter/);
    assert.match(text, /on 01-15-2026 12:05 \(America\/Chicago\)/);
    const images = await pdfImages(bytes);
    assert.deepEqual(
      images.filter((i) => i.type === "image").map((i) => [i.width, i.height]),
      [[40, 30], [120, 90], [600, 200]],
    );
    assert.equal(images.filter((i) => i.type === "smask").length, 2, "the PNGs keep their transparency");
  }));

Deno.test("inspection report - without photos or signature it has neither section", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const res = await env.request(`/api/pt/inspections/${inspection.id}/report`, {
      token: await env.login(),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.status, 200);
    assert.doesNotMatch(pdfText(bytes), /Photos|Signature/);
    assert.deepEqual(await pdfImages(bytes), []);
  }));

Deno.test("inspection report - a stored image that cannot be read prints a note, not a failed report", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const fileId = await env.tenant.write((tx) =>
      storeFile(tx, {
        name: "photo.jpg",
        content_type: "image/jpeg",
        data: new TextEncoder().encode("not a jpeg"),
      })
    );
    await env.tenant.db.insert(inspection_photos).values({
      inspection_id: inspection.id,
      file_id: fileId,
      position: 1,
      caption: "Damaged",
      width: 400,
      height: 300,
    });
    const res = await env.request(`/api/pt/inspections/${inspection.id}/report`, {
      token: await env.login(),
    });
    assert.equal(res.status, 200);
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    assert.match(text, /1\. Damaged/);
    assert.ok(text.includes(PHOTO_UNREADABLE), text);
  }));
