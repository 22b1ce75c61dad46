import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Services } from "../api/lib/context.ts";
import type { TenantDatabase } from "../db/client.ts";
import { companies, users } from "../db/schema/mod.ts";
import { makeCompany, makeUser } from "../db/factories.ts";
import { createTenant } from "../db/provision.ts";
import { openTenantDb } from "../db/tenants.ts";
import type { Catalog } from "../db/catalog.ts";
import { type DemoSize, newestJobs, seedPressureTesting, type SeedPtResult } from "./demo_pt.ts";
import { seedSales } from "./demo_sales.ts";
import { seedTickets } from "./demo_tickets.ts";

export const DEMO_PASSWORD_USERS = "demo-pass-1";

const CUSTOMERS = [
  "Permian Well Services",
  "Red River Energy",
  "Basin Flow Partners",
  "Caprock Drilling",
  "Lone Star Completions",
];
const OPERATORS = [
  "Midland Operating LLC",
  "West Texas Resources",
  "Delaware Basin Oil",
  "Eagle Ford Producers",
];
const PEOPLE = [
  ["Maria Lopez", "Job-Admin", ["job-admin", "inspector", "part-admin"]],
  ["Dwayne Carter", "General", ["inspector"]],
  ["Priya Shah", "Company-Admin", ["user-admin", "sales-admin", "approval-authority"]],
  ["Tom Becker", "Data-Entry", []],
] as const;

/** A Data-Entry user works only on the jobs assigned to them: the demo's one gets the two newest. */
const DATA_ENTRY_JOBS = 2;

/**
 * Fills a tenant with companies, users and Pressure Testing records (parts, jobs, inspections, a batch
 * with a shared PDF). Safe to run twice: what exists is kept, the Pressure Testing records are only
 * added while the owner has no jobs. `log` hears the progress of the large size.
 */
export async function seedDemo(
  db: TenantDatabase,
  o: { size?: DemoSize; scryptN: number; log?: (line: string) => void },
): Promise<SeedPtResult | undefined> {
  const { size = "small", scryptN, log = () => {} } = o;
  const [owner] = await db.select().from(companies).where(eq(companies.isOwner, true));
  const existing = new Set((await db.select({ name: companies.name }).from(companies)).map((c) => c.name));
  const scale = size === "large" ? 20 : 1;
  for (let i = 0; i < scale; i++) {
    const suffix = i === 0 ? "" : ` ${i + 1}`;
    for (const name of CUSTOMERS) {
      if (existing.has(name + suffix)) continue;
      const c = await makeCompany(db, {
        name: name + suffix,
        company_type: "customer_company",
        custom: { address_line_1: `${100 + i} Main St`, address_line_2: "Midland, TX 79701" },
      });
      await makeUser(db, {
        name: `${name.split(" ")[0]} Contact${suffix}`,
        email: `contact${i || ""}@${name.toLowerCase().replace(/[^a-z]+/g, "")}.example`,
        company_id: c.id,
        account_type: "General",
        password: DEMO_PASSWORD_USERS,
        scryptN,
      });
    }
    for (const name of OPERATORS) {
      if (!existing.has(name + suffix)) {
        await makeCompany(db, { name: name + suffix, company_type: "operator_company" });
      }
    }
  }
  const pt = owner ? await seedPressureTesting(db, owner, size, log) : undefined;
  if (owner) {
    const assigned = await newestJobs(db, owner.id, DATA_ENTRY_JOBS);
    const domain = owner.name.toLowerCase().replace(/[^a-z]+/g, "") || "owner";
    const emailOf = (name: string) => `${name.split(" ")[0].toLowerCase()}@${domain}.example`;
    for (const [name, account_type, permissions] of PEOPLE) {
      const email = emailOf(name);
      try {
        await makeUser(db, {
          name,
          email,
          account_type,
          permissions: [...permissions],
          company_id: owner.id,
          password: DEMO_PASSWORD_USERS,
          scryptN,
          isSalesRep: account_type === "Company-Admin",
          jobs: account_type === "Data-Entry" ? assigned : [],
        });
      } catch { /* already there */ }
    }
    // A Data-Entry user made before there were jobs gets them now.
    const clerk = emailOf(PEOPLE.find(([, type]) => type === "Data-Entry")![0]);
    await db.update(users).set({ jobs: assigned }).where(and(eq(users.email, clerk), eq(users.jobs, [])));
    await seedSales(db, owner, size, log);
    await seedTickets(db, owner, log);
  }
  return pt;
}

/** On an empty DATA_DIR: the `demo` tenant on localhost with demo data, and its admin's credentials. */
export async function ensureDemoTenant(s: Services) {
  if (!s.config.DEMO_TENANT) return;
  const credentials = join(s.config.DATA_DIR, "demo-credentials.txt");
  if (await s.catalog.count() === 0) {
    const email = "admin@demo.example";
    const password = randomBytes(9).toString("base64url");
    const tenant = await createTenant(s.catalog, {
      slug: "demo",
      name: "Demo Inspection Co",
      hosts: ["localhost"],
      adminEmail: email,
      adminPassword: password,
      adminName: "Demo Admin",
      scryptN: s.config.SCRYPT_N,
    });
    const tdb = await openTenantDb(s.config.DATA_DIR, tenant);
    await seedDemo(tdb.db, { scryptN: s.config.SCRYPT_N });
    await tdb.close();
    writeFileSync(credentials, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
  }
  if (existsSync(credentials) && (await demoExists(s.catalog))) {
    console.log(
      `Demo tenant on http://localhost:${s.config.PORT} - sign in with\n${readFileSync(credentials, "utf8")}`,
    );
  }
}

async function demoExists(catalog: Catalog) {
  return !!(await catalog.bySlug("demo"));
}
