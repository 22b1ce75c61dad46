import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeInspection, makeJob } from "../../../db/factories.ts";
import { files } from "../../../db/schema/mod.ts";
import { JPEG_40X30, png, pngOf } from "../../../scripts/testing/images.ts";
import { SIGNATURE_TOO_LARGE, SIGNATURE_TYPE_MESSAGE } from "./photo_schemas.ts";
import { answer, imageFile } from "./media_fixture.ts";

/** PUT the signature as the signature pad does: multipart `file`, a PNG. */
function sign(env: TestEnv, token: string, id: number, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.set("file", imageFile(bytes, "signature.png", "image/png"));
  return Promise.resolve(env.app.request(`http://${env.host}/api/pt/inspections/${id}/signature`, {
    method: "PUT",
    headers: { host: env.host, authorization: `Bearer ${token}` },
    body: form,
  }));
}

/** A PNG header and `bytes` of noise: over the size limit, which is checked before the structure. */
function noisyPng(bytes: number): Uint8Array {
  const base = png(400, 200);
  const noise = Uint8Array.from({ length: bytes }, () => Math.floor(Math.random() * 256));
  return new Uint8Array([
    ...base.subarray(0, base.length - 12),
    ...noise,
    ...base.subarray(base.length - 12),
  ]);
}

Deno.test("inspection signature - saved with the signer's name and time, replaced, removed", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const inspection = await makeInspection(env.tenant.db, { job_id: job.id });
    const { user, token } = await env.userWithToken({
      company_id: 1,
      name: "Dwayne Carter",
      permissions: ["job-admin"],
    });
    const before = Date.now() - 1000;
    const saved = await answer(await sign(env, token, inspection.id, png(600, 200)), 200);
    assert.equal(saved.message, "Signature saved");
    assert.equal(saved.signature.signer_name, user.name);
    assert.equal(saved.signature.width, 600);
    const at = Date.parse(saved.signature.signed_at);
    assert.ok(at >= before && at <= Date.now() + 1000, saved.signature.signed_at);
    assert.match(saved.signature.signed_at, /Z$/);
    const customer = (await env.userWithToken({ company_id: job.customer_company_id })).token;
    const seen = await env.json(`/api/pt/inspections/${inspection.id}/photos`, { token: customer });
    assert.deepEqual(seen.signature, saved.signature);
    const image = await env.request(saved.signature.url, { token: customer });
    assert.equal(image.headers.get("content-type"), "image/png");
    await image.body?.cancel();

    const again = await answer(await sign(env, await env.login(), inspection.id, png(500, 150)), 200);
    assert.notEqual(again.signature.url, saved.signature.url);
    assert.notEqual(again.signature.signer_name, user.name);
    await env.json(saved.signature.url, { token, status: 404 });
    assert.equal(
      (await env.tenant.db.select({ id: files.id }).from(files).all()).length,
      1,
      "the old PNG went",
    );

    const removed = await env.json(`/api/pt/inspections/${inspection.id}/signature`, {
      token,
      method: "DELETE",
    });
    assert.equal(removed.signature, null);
    assert.equal((await env.tenant.db.select({ id: files.id }).from(files).all()).length, 0);
    await env.json(`/api/pt/inspections/${inspection.id}/signature`, {
      token,
      method: "DELETE",
      status: 404,
    });
  }));

Deno.test("inspection signature - a whole PNG only (pixel data checked), at most 200 KB; inspectors and job-admins only", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const token = await env.login();
    const jpeg = await answer(await sign(env, token, inspection.id, JPEG_40X30), 422);
    assert.deepEqual(jpeg.errors, [{ path: "file", message: SIGNATURE_TYPE_MESSAGE }]);
    const heavy = await answer(await sign(env, token, inspection.id, noisyPng(210 * 1024)), 413);
    assert.equal(heavy.detail, SIGNATURE_TOO_LARGE);
    const wide = await answer(await sign(env, token, inspection.id, png(2001, 10)), 422);
    assert.equal(wide.detail, "The signature must be at most 2000 pixels on its longest side");
    // Valid chunks around pixel data the report's PNG decoder would choke on.
    const rows = (n: number, filter = 0) => {
      const out = new Uint8Array(n * (1 + 40 * 4));
      for (let y = 0; y < n; y++) out[y * (1 + 40 * 4)] = filter;
      return new Uint8Array(deflateSync(out));
    };
    const broken = rows(20).slice();
    broken[broken.length - 1] ^= 0xff; // the zlib checksum
    for (const bad of [pngOf(40, 20, broken), pngOf(40, 20, rows(19)), pngOf(40, 20, rows(20, 9))]) {
      const res = await answer(await sign(env, token, inspection.id, bad), 422);
      assert.equal(res.detail, SIGNATURE_TYPE_MESSAGE);
    }
    const interlaced = await answer(await sign(env, token, inspection.id, pngOf(40, 20, rows(20), 1)), 422);
    assert.equal(interlaced.detail, "The signature must not be an interlaced PNG");
    await answer(await sign(env, token, inspection.id, pngOf(40, 20, rows(20))), 200);

    const general = (await env.userWithToken({ company_id: 1, permissions: [] })).token;
    await answer(await sign(env, general, inspection.id, png(100, 50)), 403);
    await env.json(`/api/pt/inspections/${inspection.id}/signature`, {
      token: general,
      method: "DELETE",
      status: 403,
    });
    const listed = await env.json(`/api/pt/inspections/${inspection.id}/photos`, { token });
    assert.equal(listed.signature.width, 40, "the valid one, and only it, was saved");
  }));
