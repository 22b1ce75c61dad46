import assert from "node:assert/strict";
import { answer, imageFile, sendPhoto } from "./media_fixture.ts";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob } from "../../../db/factories.ts";
import { files, inspection_photos } from "../../../db/schema/mod.ts";
import {
  colourAt,
  cornerJpeg,
  JPEG_40X30,
  jpegClaiming,
  jpegOfBytes,
  jpegWithExif,
  png,
  pngWithExif,
} from "../../../scripts/testing/images.ts";
import { imageInfo } from "../../lib/image.ts";
import {
  CAPTION_LINE_MESSAGE,
  MAX_PHOTOS,
  PHOTO_TOO_LARGE,
  PHOTO_TYPE_MESSAGE,
  TOO_MANY_PHOTOS,
} from "./photo_schemas.ts";

const stored = (env: TestEnv) => env.tenant.db.select().from(inspection_photos).all();
const fileCount = async (env: TestEnv) =>
  (await env.tenant.db.select({ id: files.id }).from(files).all()).length;

Deno.test("inspection photos - a job-admin adds photos in order with captions; viewers of the job see them", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const inspection = await makeInspection(env.tenant.db, { job_id: job.id });
    const token = await env.login();
    const first = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30), " Seat pitting "),
      200,
    );
    assert.equal(first.message, "Photo added");
    const second = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(png(64, 48), "p.png", "image/png")),
      200,
    );
    assert.deepEqual(second.photos.map((p: { caption: string }) => p.caption), ["Seat pitting", ""]);
    assert.deepEqual(second.photos.map((p: { width: number }) => p.width), [40, 64]);
    assert.equal(second.signature, null);

    const customer = (await env.userWithToken({ company_id: job.customer_company_id })).token;
    const listed = await env.json(`/api/pt/inspections/${inspection.id}/photos`, { token: customer });
    assert.deepEqual(listed.photos, second.photos);
    const image = await env.request(listed.photos[0].url, { token: customer });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/jpeg");
    assert.deepEqual(new Uint8Array(await image.arrayBuffer()), JPEG_40X30);
    const pngAnswer = await env.request(listed.photos[1].url, { token: customer });
    assert.equal(pngAnswer.headers.get("content-type"), "image/png");
    await pngAnswer.body?.cancel();
  }));

Deno.test("inspection photos - stored without the camera's metadata (GPS, XMP); a photo tagged as turned is stored turned upright", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const inspection = await makeInspection(env.tenant.db, { job_id: job.id });
    const token = await env.login();
    const has = (bytes: Uint8Array, text: string) => new TextDecoder("latin1").decode(bytes).includes(text);

    // An upright phone JPEG with its GPS position: the picture is stored, its EXIF is not.
    const tagged = jpegWithExif(JPEG_40X30, { orientation: 1, gps: true });
    assert.ok(has(tagged, "Exif") && tagged.length > JPEG_40X30.length);
    await answer(await sendPhoto(env, token, inspection.id, imageFile(tagged)), 200);
    // A PNG with an eXIf chunk (GPS) and XMP text.
    const pngTagged = pngWithExif(png(64, 48), { orientation: 1, gps: true });
    assert.ok(has(pngTagged, "eXIf") && has(pngTagged, "GPSLatitude"));
    await answer(await sendPhoto(env, token, inspection.id, imageFile(pngTagged, "p.png", "image/png")), 200);
    const kept = await env.tenant.db.select({ data: files.data }).from(inspection_photos)
      .innerJoin(files, eq(files.id, inspection_photos.file_id)).orderBy(inspection_photos.position).all();
    assert.deepEqual(new Uint8Array(kept[0].data), JPEG_40X30, "the JPEG's pixels and tables, byte for byte");
    assert.deepEqual(new Uint8Array(kept[1].data), png(64, 48));
    assert.deepEqual(imageInfo(new Uint8Array(kept[1].data)), { type: "image/png", width: 64, height: 48 });

    // Tagged "turn 90 degrees" (a phone held upright, its pixels lying sideways): stored turned upright by
    // the server, 30 x 60, the stored top left corner (green) at the top right, without the EXIF.
    const sideways = cornerJpeg(60, 30, { orientation: 6, gps: true });
    const turned = await answer(await sendPhoto(env, token, inspection.id, imageFile(sideways)), 200);
    const photo = turned.photos.at(-1);
    assert.deepEqual([photo.width, photo.height], [30, 60]);
    const upright = new Uint8Array(await (await env.request(photo.url, { token })).arrayBuffer());
    assert.deepEqual(imageInfo(upright), { type: "image/jpeg", width: 30, height: 60 });
    assert.deepEqual(
      [colourAt(upright, 25, 4), colourAt(upright, 4, 20), colourAt(upright, 15, 50)],
      ["green", "red", "blue"],
    );
    assert.ok(!has(upright, "Exif") && !has(upright, "GPS"), "no metadata in what is stored");
    // Mirrored (2): same size, the green corner at the top right; turned 180 (3): at the bottom right.
    for (const [orientation, x, y] of [[2, 55, 4], [3, 55, 25]]) {
      const sent = await sendPhoto(env, token, inspection.id, imageFile(cornerJpeg(60, 30, { orientation })));
      const stored = (await answer(sent, 200)).photos.at(-1);
      assert.deepEqual([stored.width, stored.height], [60, 30]);
      const bytes = new Uint8Array(await (await env.request(stored.url, { token })).arrayBuffer());
      assert.equal(colourAt(bytes, x, y), "green", `orientation ${orientation}`);
    }
    // A turned JPEG whose pixels cannot be read (its scan damaged) is refused, not stored sideways.
    const damaged = cornerJpeg(60, 30, { orientation: 6 });
    damaged.fill(0x55, damaged.length - 200, damaged.length - 2);
    const unreadable = await answer(await sendPhoto(env, token, inspection.id, imageFile(damaged)), 422);
    assert.match(unreadable.detail, /turned or mirrored .*could not be read .*send it upright/);
    assert.equal(unreadable.errors[0].path, "file");
    // A PNG tagged as turned is refused: no camera writes one, and the server does not turn PNGs.
    const pngTurned = pngWithExif(png(64, 48), { orientation: 8 });
    const refused = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(pngTurned, "p.png", "image/png")),
      422,
    );
    assert.match(refused.detail, /PNG stored turned or mirrored .*send it upright/);
    assert.equal((await stored(env)).length, 5);
  }));

Deno.test("inspection photos - the type comes from the bytes: a PNG header lie, a PDF, a JPEG named .png", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const token = await env.login();
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const lie = new Uint8Array([...signature, ...new TextEncoder().encode("<script>alert(1)</script>")]);
    for (
      const bad of [imageFile(lie, "x.png", "image/png"), imageFile(new TextEncoder().encode("%PDF-1.4\n"))]
    ) {
      const res = await answer(await sendPhoto(env, token, inspection.id, bad), 422);
      assert.deepEqual(res.errors, [{ path: "file", message: PHOTO_TYPE_MESSAGE }]);
    }
    const missing = await answer(await sendPhoto(env, token, inspection.id, null), 422);
    assert.deepEqual(missing.errors, [{ path: "file", message: "Choose a photo" }]);
    await answer(await sendPhoto(env, token, inspection.id, "not a file"), 422);
    assert.equal((await stored(env)).length, 0);
    assert.equal(await fileCount(env), 0);

    const named = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30, "x.png", "image/png")),
      200,
    );
    const res = await env.request(named.photos[0].url, { token });
    assert.equal(res.headers.get("content-type"), "image/jpeg");
    await res.body?.cancel();
  }));

Deno.test("inspection photos - bounds: bytes (413), pixels, caption and count (422), nothing stored", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const token = await env.login();
    const heavy = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(jpegOfBytes(1.6 * 1024 * 1024))),
      413,
    );
    assert.equal(heavy.detail, PHOTO_TOO_LARGE);
    const huge = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(jpegOfBytes(8 * 1024 * 1024))),
      413,
    );
    assert.equal(huge.detail, PHOTO_TOO_LARGE);
    const wide = await answer(
      await sendPhoto(env, token, inspection.id, imageFile(jpegClaiming(1601, 900))),
      422,
    );
    assert.equal(wide.detail, "The photo must be at most 1600 pixels on its longest side");
    for (
      const [caption, message] of [
        ["x".repeat(201), "At most 200 characters"],
        ["two\nlines", CAPTION_LINE_MESSAGE],
        ["bell\u0007", "Control characters are not allowed"],
      ]
    ) {
      const res = await answer(
        await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30), caption),
        422,
      );
      assert.equal(res.errors[0].message, message, caption);
    }
    assert.equal((await stored(env)).length, 0);

    await answer(await sendPhoto(env, token, inspection.id, imageFile(jpegClaiming(1600, 1200))), 200);
    await answer(await sendPhoto(env, token, inspection.id, imageFile(jpegOfBytes(1.4 * 1024 * 1024))), 200);
    for (let i = 2; i < MAX_PHOTOS; i++) {
      await answer(await sendPhoto(env, token, inspection.id, imageFile(jpegClaiming(100 + i, 50))), 200);
    }
    const full = await answer(await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30)), 422);
    assert.equal(full.detail, TOO_MANY_PHOTOS);
    assert.equal((await stored(env)).length, MAX_PHOTOS);
  }));

Deno.test("inspection photos - inspectors and job-admins of the inspection company, within their scope", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const inspection = await makeInspection(env.tenant.db, { job_id: job.id });
    const photo = () => imageFile(JPEG_40X30);
    // the inspector who records the inspection adds its photos; a General user of the company cannot
    const inspector = (await env.userWithToken({ company_id: 1, permissions: ["inspector"] })).token;
    await answer(await sendPhoto(env, inspector, inspection.id, photo()), 200);
    const general = (await env.userWithToken({ company_id: 1, permissions: [] })).token;
    const refused = await answer(await sendPhoto(env, general, inspection.id, photo()), 403);
    assert.equal(refused.detail, "You do not have permission to do that.");
    const customer =
      (await env.userWithToken({ company_id: job.customer_company_id, permissions: ["job-admin"] }))
        .token;
    await answer(await sendPhoto(env, customer, inspection.id, photo()), 403);
    const rivalCo = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const rival = (await env.userWithToken({ company_id: rivalCo.id, permissions: ["job-admin"] })).token;
    await answer(await sendPhoto(env, rival, inspection.id, photo()), 404);
    await env.json(`/api/pt/inspections/${inspection.id}/photos`, { token: rival, status: 404 });
    const dataEntry = (await env.userWithToken({
      company_id: 1,
      account_type: "Data-Entry",
      permissions: ["job-admin"],
      jobs: [],
    })).token;
    await answer(await sendPhoto(env, dataEntry, inspection.id, photo()), 404);
    await answer(await sendPhoto(env, await env.login(), 999999, photo()), 404);
    const anonymous = await env.app.request(`http://${env.host}/api/pt/inspections/${inspection.id}/photos`, {
      method: "POST",
      headers: { host: env.host },
      body: new FormData(),
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    assert.equal((await stored(env)).length, 1);
  }));

Deno.test("inspection photos - removing one drops its bytes unless another photo shares them", () =>
  withEnv(async (env) => {
    const a = await makeInspection(env.tenant.db);
    const b = await makeInspection(env.tenant.db);
    const token = await env.login();
    const onA = await answer(await sendPhoto(env, token, a.id, imageFile(JPEG_40X30)), 200);
    const onB = await answer(await sendPhoto(env, token, b.id, imageFile(JPEG_40X30)), 200);
    const own = await answer(await sendPhoto(env, token, b.id, imageFile(png(10, 10), "p.png")), 200);
    assert.equal(await fileCount(env), 2, "the same JPEG is stored once");

    const [photoA] = onA.photos;
    await env.json(`/api/pt/inspections/${b.id}/photos/${photoA.id}`, {
      token,
      method: "DELETE",
      status: 404,
    });
    const general = (await env.userWithToken({ company_id: 1, permissions: [] })).token;
    await env.json(`/api/pt/inspections/${a.id}/photos/${photoA.id}`, {
      token: general,
      method: "DELETE",
      status: 403,
    });
    const left = await env.json(`/api/pt/inspections/${a.id}/photos/${photoA.id}`, {
      token,
      method: "DELETE",
    });
    assert.equal(left.message, "Photo removed");
    assert.deepEqual(left.photos, []);
    assert.equal((await env.request(onB.photos[0].url, { token })).status, 200, "still B's photo");
    assert.equal(await fileCount(env), 2);

    const pngPhoto = own.photos[1];
    await env.json(`/api/pt/inspections/${b.id}/photos/${pngPhoto.id}`, { token, method: "DELETE" });
    assert.equal(await fileCount(env), 1, "the PNG's bytes went with it");
    await env.json(pngPhoto.url, { token, status: 404 });
    const rows = await env.tenant.db.select().from(inspection_photos).where(
      eq(inspection_photos.inspection_id, b.id),
    );
    assert.equal(rows.length, 1);
  }));

Deno.test("inspection photos - another tenant's admin reaches neither the photos nor their files", () =>
  withEnv(async (env) => {
    const inspection = await makeInspection(env.tenant.db);
    const token = await env.login();
    const added = await answer(await sendPhoto(env, token, inspection.id, imageFile(JPEG_40X30)), 200);
    await env.addTenant("beta", "beta.test");
    const beta = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const path = `/api/pt/inspections/${inspection.id}/photos`;
    await env.json(path, { token: beta, host: "beta.test", status: 404 });
    await env.json(added.photos[0].url, { token: beta, host: "beta.test", status: 404 });
    await answer(await sendPhoto(env, beta, inspection.id, imageFile(png(5, 5)), "", "beta.test"), 404);
    await env.json(`${path}/${added.photos[0].id}`, {
      token: beta,
      host: "beta.test",
      method: "DELETE",
      status: 404,
    });
    await env.json(path, { token: beta, status: 401 });
    assert.equal((await stored(env)).length, 1);
  }));
