import { eq } from "drizzle-orm";
import {
  categories,
  type Category,
  companies,
  type Company,
  type Inspection,
  inspections,
  inventory,
  type InventoryRow,
  type Item,
  items,
  type Job,
  jobs,
  type NewCategory,
  type NewCompany,
  type NewInspection,
  type NewInventoryRow,
  type NewItem,
  type NewJob,
  type NewPart,
  type NewSale,
  type NewTicket,
  type NewUser,
  type Part,
  parts,
  type Sale,
  sales,
  type Ticket,
  tickets,
  type User,
  users,
} from "./schema/mod.ts";
import type { TenantDatabase } from "./client.ts";
import { hashPassword } from "../lib/password.ts";

/**
 * Cheap hashes for made-up test users: tests need many, and they verify the same way. Users people
 * really sign in as (the demo's) pass the configured cost instead. One hash per password and cost.
 */
const FACTORY_SCRYPT_N = 1024;
const hashes = new Map<string, Promise<string>>();
export function factoryHash(password: string, scryptN = FACTORY_SCRYPT_N): Promise<string> {
  const key = `${scryptN}:${password}`;
  let h = hashes.get(key);
  if (!h) hashes.set(key, h = hashPassword(password, scryptN));
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

export type MakeUser = Partial<Omit<NewUser, "password_hash">> & { password?: string; scryptN?: number };

export async function makeUser(db: TenantDatabase, over: MakeUser = {}): Promise<User> {
  const { password = "password123", scryptN, ...rest } = over;
  const company_id = rest.company_id ?? (await makeCompany(db)).id;
  const [row] = await db.insert(users).values({
    name: `User ${next()}`,
    email: `user-${next()}@example.test`,
    phone: "555-0100",
    account_type: "General",
    ...rest,
    company_id,
    password_hash: await factoryHash(password, scryptN),
  }).returning();
  return row;
}

const today = () => new Date().toISOString().slice(0, 10);

/** A part of the owner company (id 1 unless given). */
export async function makePart(db: TenantDatabase, over: Partial<NewPart> = {}): Promise<Part> {
  const [row] = await db.insert(parts).values({
    name: `Part ${next()}`,
    description: "2in 1502 plug valve",
    manufacturer: "SPM",
    inspection_company_id: 1,
    ...over,
  }).returning();
  return row;
}

/** A job of the owner company for a new customer and operator unless they are given. */
export async function makeJob(db: TenantDatabase, over: Partial<NewJob> = {}): Promise<Job> {
  const customer_company_id = over.customer_company_id ??
    (await makeCompany(db, { company_type: "customer_company" })).id;
  const operator_company_id = over.operator_company_id ??
    (await makeCompany(db, { company_type: "operator_company" })).id;
  const [row] = await db.insert(jobs).values({
    date: today(),
    job_number: `J-${next()}`,
    inspection_company_id: 1,
    district: "Permian",
    inspector: "Dwayne Carter",
    uv_serial_number: "UV-1001",
    uv_recalibration_date: today(),
    blacklight_reading: "1200",
    ut_serial_number: "UT-2002",
    ut_recalibration_date: today(),
    comments: "None",
    ...over,
    customer_company_id,
    operator_company_id,
  }).returning();
  return row;
}

/** An inspection on a job (a new job unless given), carrying the job's companies. */
export async function makeInspection(
  db: TenantDatabase,
  over: Partial<NewInspection> = {},
): Promise<Inspection> {
  const job = over.job_id
    ? (await db.select().from(jobs).where(eq(jobs.id, over.job_id)))[0]
    : await makeJob(db);
  const [row] = await db.insert(inspections).values({
    date: job.date,
    serial_number: `SN-${next()}`,
    visual_pass: true,
    ...over,
    job_id: job.id,
    inspection_company_id: job.inspection_company_id,
    customer_company_id: job.customer_company_id,
    operator_company_id: job.operator_company_id,
  }).returning();
  return row;
}

/** A category row of a model (a business unit unless given), owned by the owner company. */
export async function makeCategory(db: TenantDatabase, over: Partial<NewCategory> = {}): Promise<Category> {
  const [row] = await db.insert(categories).values({
    company_id: 1,
    model: "Business Unit",
    name: `Unit ${next()}`,
    ...over,
  }).returning();
  return row;
}

export async function makeItem(db: TenantDatabase, over: Partial<NewItem> = {}): Promise<Item> {
  const [row] = await db.insert(items).values({
    company_id: 1,
    item_number: `IT-${next()}`,
    item_description: "3in 1502 swivel joint",
    rate: 125,
    units: "Per Day",
    inventory_type: "Itemized",
    item_type: "Rental",
    ...over,
  }).returning();
  return row;
}

/** A stock row: of a new item and a new business unit unless given. */
export async function makeInventory(
  db: TenantDatabase,
  over: Partial<NewInventoryRow> = {},
): Promise<InventoryRow> {
  const item_id = over.item_id ?? (await makeItem(db)).id;
  const business_unit_id = over.business_unit_id ?? (await makeCategory(db)).id;
  const [row] = await db.insert(inventory).values({
    company_id: 1,
    serial_number: `SN-${next()}`,
    quantity: 10,
    ...over,
    item_id,
    business_unit_id,
  }).returning();
  return row;
}

/** An OPEN ticket of a new customer unless given, numbered T-<seq>. */
export async function makeTicket(db: TenantDatabase, over: Partial<NewTicket> = {}): Promise<Ticket> {
  const customer_id = over.customer_id ?? (await makeCompany(db, { company_type: "customer_company" })).id;
  const [row] = await db.insert(tickets).values({
    company_id: 1,
    ticket_number: `T-${next()}`,
    ticket_date: today(),
    ...over,
    customer_id,
  }).returning();
  return row;
}

/**
 * A line on a ticket (a new ticket and inventory row unless given). It does not touch the inventory
 * row's quantity_out: set `quantity_held` and update the row yourself when a test needs stock held.
 */
export async function makeLine(db: TenantDatabase, over: Partial<NewSale> = {}): Promise<Sale> {
  const ticket_id = over.ticket_id ?? (await makeTicket(db)).id;
  const inventory_id = over.inventory_id ?? (await makeInventory(db)).id;
  const [row] = await db.insert(sales).values({
    company_id: 1,
    start_date: `${today()}T08:00:00Z`,
    quantity: 1,
    price: 100,
    duration: 1,
    ...over,
    ticket_id,
    inventory_id,
  }).returning();
  return row;
}
