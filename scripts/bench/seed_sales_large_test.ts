import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { withEnv } from "../testing/harness.ts";
import { seedDemo } from "../demo.ts";
import { describe, stockViolations } from "../testing/stock_invariant.ts";
import { seedSalesLarge, sizes } from "./seed_sales_large.ts";

Deno.test("bench's large sales tenant, seeded at a thousandth of its size, keeps the stock invariant", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await seedDemo(db, { scryptN: 1024 });
    // The seeding writes a tenant file (on sqld, TEST_DB=sqld, there is none to write).
    if (!env.tenant.url.startsWith("file:")) return;
    const file = env.tenant.url.startsWith("file://")
      ? fileURLToPath(env.tenant.url)
      : env.tenant.url.slice("file:".length);
    await seedSalesLarge(file, () => {}, 0.001);
    const want = sizes(0.001);
    const count = async (table: string) =>
      Number((await db.all<{ n: number }>(sql.raw(`select count(*) n from ${table}`)))[0].n);
    assert.ok((await count("tickets")) >= want.tickets, "the bench's tickets were added");
    assert.ok((await count("sales")) >= want.lines);
    const v = await stockViolations(async (s) => (await db.all(sql.raw(s))) as Record<string, unknown>[]);
    assert.equal(describe(v), "", "the stock invariant holds");
  }));
