import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { count, eq, isNotNull, isNull } from "drizzle-orm";
import { withEnv } from "./testing/harness.ts";
import { pdfText } from "./testing/pdf_text.ts";
import { seedDemo } from "./demo.ts";
import { makeUser } from "../db/factories.ts";
import { companies, files, inspections, jobs, parts, users } from "../db/schema/mod.ts";
import type { TenantDatabase } from "../db/client.ts";

const counts = async (db: TenantDatabase) => {
  const n = async (table: typeof companies | typeof users | typeof jobs | typeof inspections) =>
    (await db.select({ n: count() }).from(table))[0].n;
  return {
    companies: await n(companies),
    users: await n(users),
    jobs: await n(jobs),
    inspections: await n(inspections),
    parts: (await db.select({ n: count() }).from(parts))[0].n,
    files: (await db.select({ n: count() }).from(files))[0].n,
  };
};

Deno.test("demo seed - a fresh tenant gets parts, jobs, inspections and one shared batch PDF; twice adds nothing", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const result = await seedDemo(db, { scryptN: 1024 });
    assert.ok(result, "the Pressure Testing records were seeded");
    const first = await counts(db);
    assert.equal(first.parts, 8);
    assert.equal(first.jobs, 24);
    assert.ok(
      first.inspections >= 24 * 5 && first.inspections <= 24 * 12,
      `${first.inspections} inspections`,
    );
    assert.equal(first.files, 1, "the batch's PDF is stored once");

    const withPdf = await db.select().from(inspections).where(isNotNull(inspections.pressure_test_file_id));
    const without = await db.select({ n: count() }).from(inspections)
      .where(isNull(inspections.pressure_test_file_id));
    assert.ok(withPdf.length >= 5, "a batch shares the PDF");
    assert.ok(without[0].n > 0, "most inspections have no PDF");
    assert.equal(new Set(withPdf.map((i) => i.batch)).size, 1, "one batch");
    assert.equal(new Set(withPdf.map((i) => i.job_id)).size, 1, "of one job");

    const [file] = await db.select().from(files);
    const pdf = new Uint8Array(file.data);
    assert.equal((await PDFDocument.load(pdf)).getPageCount(), 1);
    assert.ok(pdfText(pdf).includes("Pressure Test Certificate"));

    // Realistic values: the spec's colours and MPI options, jobs within the last 60 days.
    const all = await db.select().from(inspections);
    assert.ok(new Set(all.map((i) => i.band_color)).size >= 3);
    assert.ok(all.every((i) => ["Pass", "Fail", "Not Required"].includes(i.mpi_result!)));
    assert.ok(all.every((i) => i.ut_1! > 0.2 && i.ut_1! < 0.7 && [10000, 15000].includes(i.pressure!)));
    const oldest = (await db.select({ date: jobs.date }).from(jobs).orderBy(jobs.date).limit(1))[0].date;
    assert.ok(Date.now() - Date.parse(oldest) <= 61 * 86_400_000, `oldest job ${oldest}`);
    const pairs = new Set(
      (await db.select().from(jobs)).map((j) => `${j.customer_company_id}/${j.operator_company_id}`),
    );
    assert.ok(pairs.size >= 3, "several customer/operator pairs");
    assert.ok((await db.select().from(jobs)).every((j) => /^PT-\d{5}$/.test(j.job_number)));

    const [clerk] = await db.select().from(users).where(eq(users.account_type, "Data-Entry"));
    assert.equal(clerk.jobs.length, 2, "the Data-Entry user is assigned two jobs");

    assert.equal(
      await seedDemo(db, { scryptN: 1024 }),
      undefined,
      "a second run seeds no Pressure Testing records",
    );
    assert.deepEqual(await counts(db), first);
  }));

Deno.test("demo seed - the demo's Data-Entry user signs in and sees only the two assigned jobs", () =>
  withEnv(async (env) => {
    // As an earlier seed left them: the Data-Entry user exists, with no jobs yet.
    await makeUser(env.tenant.db, {
      name: "Tom Becker",
      email: "tom@acmeinspections.example",
      account_type: "Data-Entry",
      company_id: 1,
      password: "demo-pass-1",
    });
    await seedDemo(env.tenant.db, { scryptN: 1024 });
    const [clerk] = await env.tenant.db.select().from(users).where(eq(users.account_type, "Data-Entry"));
    assert.equal(clerk.jobs.length, 2, "assigned now that there are jobs");
    const token = await env.login(clerk.email, "demo-pass-1");
    const list = await env.json("/api/pt/jobs?rowsPerPage=-1", { token });
    assert.deepEqual(list.results.map((j: { id: number }) => j.id).sort(), [...clerk.jobs].sort());
  }));

Deno.test("demo seed - the users it makes are hashed at the configured scrypt cost, not the test factories'", () =>
  withEnv(async (env) => {
    await seedDemo(env.tenant.db, { scryptN: 2048 });
    const made = await env.tenant.db.select().from(users);
    const demo = made.filter((u) => u.email !== "admin@acme.test");
    assert.ok(demo.length >= 9, "customer contacts and the owner's people");
    for (const u of demo) assert.match(u.password_hash, /^scrypt\$2048\$/, u.email);
    await env.login(demo[0].email, "demo-pass-1");
  }));
