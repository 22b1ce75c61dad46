import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../../db/factories.ts";
import { files, inspections } from "../../../db/schema/mod.ts";

/** A small, real PDF; `tag` makes its bytes (and so its hash) differ. */
function pdf(tag = "test"): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n` +
      `2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${tag}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}
const dataUrl = (bytes: Uint8Array) => `data:application/pdf;base64,${Buffer.from(bytes).toString("base64")}`;
const attachment = (name: string, bytes: Uint8Array) => ({ pressure_test: { name, url: dataUrl(bytes) } });

async function inspector(env: TestEnv) {
  return (await env.userWithToken({ permissions: ["inspector"], company_id: 1 })).token;
}

const post = (env: TestEnv, token: string, json: unknown, status = 200) =>
  env.json("/api/pt/inspections/batch", { token, method: "POST", json, status });

const rowsOf = async (env: TestEnv) => await env.tenant.db.select().from(inspections).all();
const filesOf = async (env: TestEnv) => await env.tenant.db.select().from(files).all();

Deno.test("batch - creates new serials and overrides part, batch and PDF on the job's existing ones only", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const otherJob = await makeJob(env.tenant.db);
    const oldPart = await makePart(env.tenant.db);
    const newPart = await makePart(env.tenant.db);
    const kept = await makeInspection(env.tenant.db, {
      job_id: job.id,
      serial_number: "SN-1",
      batch: "OLD",
      part_id: oldPart.id,
      notes: "keep me",
      ut_1: 3.5,
    });
    const elsewhere = await makeInspection(env.tenant.db, {
      job_id: otherJob.id,
      serial_number: "SN-1",
      batch: "OLD",
      part_id: oldPart.id,
    });
    const stranger = await makeCompany(env.tenant.db);
    const res = await post(env, token, {
      date: "2024-06-01",
      serial_numbers: ["sn-1", "SN-2", "SN-3", "sn-2", "SN-4,SN-5", " "],
      batch: "B-77",
      part_id: newPart.id,
      imageFiles: attachment("report.pdf", pdf()),
      job_id: job.id,
      customer_company_id: stranger.id,
      inspection_company_id: stranger.id,
      operator_company_id: stranger.id,
    });
    assert.deepEqual(res, { created: 4, updated: 1, message: "4 inspections created, 1 updated" });

    const [file] = await filesOf(env);
    assert.equal(file.name, "report.pdf");
    assert.equal(file.content_type, "application/pdf");
    const rows = await rowsOf(env);
    const updated = rows.find((r) => r.id === kept.id)!;
    assert.deepEqual(
      [updated.serial_number, updated.batch, updated.part_id, updated.pressure_test_file_id],
      ["SN-1", "B-77", newPart.id, file.id],
    );
    assert.deepEqual([updated.notes, updated.ut_1, updated.date], ["keep me", 3.5, kept.date]);
    const untouched = rows.find((r) => r.id === elsewhere.id)!;
    assert.deepEqual([untouched.batch, untouched.part_id, untouched.pressure_test_file_id], [
      "OLD",
      oldPart.id,
      null,
    ]);
    const fresh = rows.filter((r) => r.job_id === job.id && r.id !== kept.id);
    assert.deepEqual(fresh.map((r) => r.serial_number).sort(), ["SN-2", "SN-3", "SN-4", "SN-5"]);
    for (const r of fresh) {
      assert.deepEqual(
        [r.date, r.batch, r.part_id, r.pressure_test_file_id, r.customer_company_id, r.operator_company_id],
        ["2024-06-01", "B-77", newPart.id, file.id, job.customer_company_id, job.operator_company_id],
      );
    }
    const list = await env.json(`/api/pt/inspections?job_id=${job.id}&search_serial_number=SN-3`, { token });
    assert.equal(list.results[0].custom.pressure_test_pdf, `/api/files/${file.id}`);
  }));

Deno.test("batch - pasted comma-separated serials; one stored PDF for the same bytes across batches", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const first = await post(env, token, {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: "A1,A2,,a1,A3",
      imageFiles: attachment("first.pdf", pdf("same")),
    });
    assert.deepEqual([first.created, first.updated], [3, 0]);
    const second = await post(env, token, {
      job_id: job.id,
      date: "2024-06-02",
      serial_numbers: "A3,B1",
      imageFiles: attachment("second.pdf", pdf("same")),
    });
    assert.deepEqual(second, { created: 1, updated: 1, message: "1 inspection created, 1 updated" });
    const stored = await filesOf(env);
    assert.equal(stored.length, 1);
    assert.ok((await rowsOf(env)).every((r) => r.pressure_test_file_id === stored[0].id));
    await post(env, token, {
      job_id: job.id,
      date: "2024-06-02",
      serial_numbers: ["C1"],
      imageFiles: attachment("third.pdf", pdf("different")),
    });
    assert.equal((await filesOf(env)).length, 2);
  }));

Deno.test("batch - without a PDF, part or batch name the existing values stay", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const part = await makePart(env.tenant.db);
    await post(env, token, {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: ["K1"],
      batch: "B1",
      part_id: part.id,
      imageFiles: attachment("r.pdf", pdf()),
    });
    const again = await post(env, token, {
      job_id: job.id,
      date: "2024-06-01",
      serial_numbers: ["k1", "K2"],
      batch: "",
      part_id: null,
      imageFiles: { pressure_test: { name: "", url: "" } },
    });
    assert.deepEqual([again.created, again.updated], [1, 1]);
    const rows = await rowsOf(env);
    const k1 = rows.find((r) => r.serial_number === "K1")!;
    assert.deepEqual([k1.batch, k1.part_id, k1.pressure_test_file_id !== null], ["B1", part.id, true]);
    const k2 = rows.find((r) => r.serial_number === "K2")!;
    assert.deepEqual([k2.batch, k2.part_id, k2.pressure_test_file_id], ["", null, null]);
  }));

Deno.test("batch - a bad PDF or bad fields are 422 and nothing is saved", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const base = { job_id: job.id, date: "2024-06-01", serial_numbers: ["Z1", "Z2"] };
    const cases: [unknown, string, string][] = [
      [
        attachment("report.pdf", new TextEncoder().encode("GIF89a not a pdf")),
        "imageFiles.pressure_test",
        "",
      ],
      [attachment("report", pdf()), "imageFiles.pressure_test", ""],
      [attachment(".pdf", pdf()), "imageFiles.pressure_test", ""],
      [attachment("report.txt", pdf()), "imageFiles.pressure_test", ""],
      [
        { pressure_test: { name: "r.pdf", url: "data:application/pdf;base64,@@@" } },
        "imageFiles.pressure_test",
        "",
      ],
      [
        { pressure_test: { name: "r.pdf", url: "https://example.test/r.pdf" } },
        "imageFiles.pressure_test",
        "",
      ],
    ];
    for (const [imageFiles, path] of cases) {
      const body = await post(env, token, { ...base, imageFiles }, 422);
      assert.deepEqual(body.errors, [{ path, message: "The attachment must be a PDF file" }]);
    }
    const none = await post(env, token, { ...base, serial_numbers: " , ," }, 422);
    assert.deepEqual(none.errors, [{
      path: "serial_numbers",
      message: "At least one serial number is required",
    }]);
    const noDate = await post(env, token, { ...base, date: "" }, 422);
    assert.deepEqual(noDate.errors, [{ path: "date", message: "Required" }]);
    const other = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const foreignPart = await makePart(env.tenant.db, { inspection_company_id: other.id });
    const part = await post(env, token, {
      ...base,
      part_id: foreignPart.id,
      imageFiles: attachment("ok.pdf", pdf()),
    }, 422);
    assert.deepEqual(part.errors, [{ path: "part_id", message: "Unknown part" }]);
    assert.deepEqual(await rowsOf(env), []);
    assert.deepEqual(await filesOf(env), []);
  }));

Deno.test("batch - a PDF over MAX_UPLOAD_MB is 413, and so is a whole request over the limit", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const big = new Uint8Array(20 * 1024).fill(32);
    big.set(pdf());
    const base = { job_id: job.id, date: "2024-06-01", serial_numbers: ["Z1"] };
    const res = await post(env, token, { ...base, imageFiles: attachment("big.pdf", big) }, 413);
    assert.equal(res.detail, "The file is larger than 0.01 MB.");
    const huge = await post(env, token, { ...base, padding: "x".repeat(400 * 1024) }, 413);
    assert.equal(huge.detail, "The file is larger than 0.01 MB.");
    await post(env, token, { ...base, imageFiles: attachment("small.pdf", pdf()) });
    assert.equal((await rowsOf(env)).length, 1);
  }, { MAX_UPLOAD_MB: "0.01" }));

Deno.test("batch - multipart form data with a pressure_test file part", () =>
  withEnv(async (env) => {
    const token = await inspector(env);
    const job = await makeJob(env.tenant.db);
    const part = await makePart(env.tenant.db);
    const form = new FormData();
    form.set("job_id", String(job.id));
    form.set("date", "2024-06-03");
    form.set("batch", "MP-1");
    form.set("part_id", String(part.id));
    form.append("serial_numbers", "M1,M2");
    form.append("serial_numbers", "M3");
    form.set("pressure_test", new File([pdf() as BlobPart], "scan.pdf", { type: "application/pdf" }));
    const send = (body: FormData) =>
      env.app.request(`http://${env.host}/api/pt/inspections/batch`, {
        method: "POST",
        headers: { host: env.host, authorization: `Bearer ${token}` },
        body,
      });
    const res = await send(form);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), {
      created: 3,
      updated: 0,
      message: "3 inspections created, 0 updated",
    });
    const [file] = await filesOf(env);
    assert.equal(file.name, "scan.pdf");
    assert.deepEqual(new Uint8Array(file.data), pdf());
    assert.ok((await rowsOf(env)).every((r) => r.batch === "MP-1" && r.pressure_test_file_id === file.id));

    form.set("pressure_test", new File(["not a pdf"], "scan.pdf", { type: "application/pdf" }));
    const bad = await send(form);
    assert.equal(bad.status, 422);
    assert.equal((await bad.json()).errors[0].path, "imageFiles.pressure_test");
  }));

Deno.test("batch - only inspectors of the job's inspection company, within scope", () =>
  withEnv(async (env) => {
    const job = await makeJob(env.tenant.db);
    const body = { job_id: job.id, date: "2024-06-01", serial_numbers: ["R1"] };
    const general = (await env.userWithToken({ permissions: ["job-admin"], company_id: 1 })).token;
    await post(env, general, body, 403);
    const customer =
      (await env.userWithToken({ permissions: ["inspector"], company_id: job.customer_company_id }))
        .token;
    await post(env, customer, body, 403);
    const other = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const otherInspector =
      (await env.userWithToken({ permissions: ["inspector"], company_id: other.id })).token;
    await post(env, otherInspector, body, 404);
    const dataEntry = (await env.userWithToken({
      permissions: ["inspector"],
      company_id: 1,
      account_type: "Data-Entry",
      jobs: [],
    })).token;
    await post(env, dataEntry, body, 404);
    await env.json("/api/pt/inspections/batch", { method: "POST", json: body, status: 401 });
    assert.deepEqual(await rowsOf(env), []);
    const admin = await env.login(ADMIN.email, ADMIN.password);
    assert.equal((await post(env, admin, body)).created, 1);
  }));
