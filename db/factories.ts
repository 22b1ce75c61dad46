import { companies, type Company, type NewCompany, type NewUser, type User, users } from "./schema/mod.ts";
import type { TenantDatabase } from "./client.ts";
import { hashPassword } from "../api/lib/password.ts";

/** Cheap hashes for made-up users: tests and demo data need many, and they verify the same way. */
const FACTORY_SCRYPT_N = 1024;
const hashes = new Map<string, Promise<string>>();
export function factoryHash(password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) hashes.set(password, h = hashPassword(password, FACTORY_SCRYPT_N));
  return h;
}

let seq = 0;
const next = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

export async function makeCompany(db: TenantDatabase, over: Partial<NewCompany> = {}): Promise<Company> {
  const [row] = await db.insert(companies).values({
    name: over.name ?? `Company ${next()}`,
    company_type: "customer_company",
    ...over,
  }).returning();
  return row;
}

export type MakeUser = Partial<Omit<NewUser, "password_hash">> & { password?: string };

export async function makeUser(db: TenantDatabase, over: MakeUser = {}): Promise<User> {
  const { password = "password123", ...rest } = over;
  const company_id = rest.company_id ?? (await makeCompany(db)).id;
  const [row] = await db.insert(users).values({
    name: `User ${next()}`,
    email: `user-${next()}@example.test`,
    phone: "555-0100",
    account_type: "General",
    ...rest,
    company_id,
    password_hash: await factoryHash(password),
  }).returning();
  return row;
}
