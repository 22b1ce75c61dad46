// The data set of the route x tenant x role isolation matrix (api/isolation_matrix*_test.ts): two
// tenants, each filled with rows whose names and serials carry a marker ("ACME-…", "BETA-…", and per
// job "ACME-J1-…"), users of every kind, and the ids a request needs to reach each row.
import { Buffer } from "node:buffer";
import { eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { ADMIN, type TestEnv } from "./harness.ts";
import type { TenantDb } from "../../db/tenants.ts";
import {
  makeCategory,
  makeCompany,
  makeInspection,
  makeInventory,
  makeItem,
  makeJob,
  makeLine,
  makePart,
  makeTicket,
  makeUser,
} from "../../db/factories.ts";
import {
  files,
  inspection_photos,
  inspection_signatures,
  inventory,
  inventory_audit,
  inventory_locations,
  inventory_log,
  rejections,
  sub_categories,
  taxes,
  templates,
} from "../../db/schema/mod.ts";
import { type AbilityName, ALL_GRANTS, can } from "../../lib/policy.ts";
import { jpegTagged, pngOf } from "./images.ts";
import { deflateSync } from "node:zlib";

/** The kinds of user every route is tried with. */
export const USER_KINDS = [
  "admin", // the tenant's Company-Admin: every role and permission
  "userAdmin",
  "inspector",
  "jobAdmin",
  "partAdmin",
  "salesAdmin",
  "noRoles", // owner-company staff without any role
  "customer", // a user of customer company C1, holding every role (company type must still gate)
  "operator", // a user of operator company O1, no roles
  "dataEntry", // owner-company Data-Entry user assigned only job J2 (inspector + job-admin)
] as const;
export type UserKind = (typeof USER_KINDS)[number];

/** What the gates of the API look at. */
export interface UserFacts {
  kind: UserKind;
  isOwner: boolean;
  companyType: "inspection_company" | "customer_company" | "operator_company";
  permissions: string[];
  dataEntry: boolean;
}

/** The policy's answer for a user with these facts. */
export const may = (u: UserFacts, ability: AbilityName) =>
  can({
    permissions: u.permissions,
    account_type: u.dataEntry ? "Data-Entry" : "General",
    company: { isOwner: u.isOwner, company_type: u.companyType },
  }, ability);

/** Ids of one tenant's rows, by role in the data set. */
export interface Ids {
  owner: number;
  C1: number;
  C2: number;
  O1: number;
  O2: number;
  J1: number;
  J2: number;
  J3: number;
  /** first inspection of each job */
  I1: number;
  I2: number;
  I3: number;
  /** the pressure-test PDF of each job's inspections */
  F1: number;
  F2: number;
  F3: number;
  /** a photo of each job's first inspection (caption "M-Jn-PHOTO"), which is signed too */
  P1: number;
  P2: number;
  P3: number;
  part: number;
  /** a user of each company (not one of the signed-in users, so deleting it would show) */
  ownerUser: number;
  c1User: number;
  c2User: number;
  o2User: number;
  unit: number;
  unit2: number;
  invCategory: number;
  itemCategory: number;
  productLine: number;
  subCategory: number;
  tax: number;
  item: number;
  serialItem: number;
  /** an itemized row of `item` in `unit`, with stock at the yard location */
  row: number;
  serialRow: number;
  template: number;
  /** an OPEN ticket of C1 with a line holding stock of `row` (attachment on it), checked in partly */
  ticket: number;
  line: number;
  lineFile: number;
  /** an approved invoice of C2 with a sold line */
  invoice: number;
  soldLine: number;
  rejection: number;
}

export interface TenantSide {
  slug: string;
  host: string;
  /** "ACME" or "BETA": every name and serial of the data set starts with `${marker}-` */
  marker: string;
  /** the owner company's name (no marker in it: the tenant CLI names it) */
  ownerName: string;
  tdb: TenantDb;
  ids: Ids;
  users: Record<UserKind, UserFacts & { id: number; email: string; token: string }>;
}

const PASSWORD = "password123";

/** A small, real PDF; `tag` makes its bytes (and so its hash) differ. */
export function pdfBytes(tag: string): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n` +
      `2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
      `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n% ${tag}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

/**
 * Every AUTOINCREMENT table of the tenant continues from `base`, so the two tenants' ids never overlap
 * (acme's rows above 1000, beta's above 5000): an id of one tenant is one the other does not have.
 */
async function startIdsAt(tdb: TenantDb, base: number) {
  const tables = await tdb.client.execute(
    "select name from sqlite_master where type = 'table' and sql like '%AUTOINCREMENT%'",
  );
  for (const { name } of tables.rows) {
    const max = await tdb.client.execute(`select coalesce(max(id), 0) as m from "${name}"`);
    const seq = Math.max(base, Number(max.rows[0].m));
    await tdb.client.execute({ sql: "delete from sqlite_sequence where name = ?", args: [name] });
    await tdb.client.execute({
      sql: "insert into sqlite_sequence(name, seq) values (?, ?)",
      args: [name, seq],
    });
  }
}

async function storeFile(
  tdb: TenantDb,
  name: string,
  data = pdfBytes(name),
  content_type = "application/pdf",
): Promise<number> {
  const digest = Buffer.from(await crypto.subtle.digest("SHA-256", data as BufferSource)).toString("hex");
  const [row] = await tdb.db.insert(files).values({
    sha256: digest,
    name,
    content_type,
    size: data.length,
    data: Buffer.from(data),
  }).returning();
  return row.id;
}

/** A photo captioned `${tag}-PHOTO` and a signature by `${tag}-SIGNER` on the inspection; the photo's id. */
async function photoAndSignature(tdb: TenantDb, inspection_id: number, tag: string): Promise<number> {
  const photo = await storeFile(tdb, `${tag}-photo.jpg`, jpegTagged(`${tag}-PHOTO-BYTES`), "image/jpeg");
  const [row] = await tdb.db.insert(inspection_photos).values({
    inspection_id,
    file_id: photo,
    position: 1,
    caption: `${tag}-PHOTO`,
    width: 40,
    height: 30,
  }).returning();
  // An 8 x 4 RGBA PNG whose first row spells the tag, so each is a file of its own.
  const pixels = new Uint8Array(4 * (1 + 8 * 4));
  pixels.set(new TextEncoder().encode(tag).subarray(0, 32), 1);
  const png = pngOf(8, 4, new Uint8Array(deflateSync(pixels)));
  const ink = await storeFile(tdb, `${tag}-signature.png`, png, "image/png");
  await tdb.db.insert(inspection_signatures).values({
    inspection_id,
    file_id: ink,
    signer_name: `${tag}-SIGNER`,
    width: 8,
    height: 4,
  });
  return row.id;
}

/** Fills one tenant with the marked data set and signs in one user of each kind. */
export async function fillTenant(
  env: TestEnv,
  tdb: TenantDb,
  host: string,
  marker: string,
  idBase: number,
): Promise<TenantSide> {
  await startIdsAt(tdb, idBase);
  const db = tdb.db;
  const M = marker;
  const company = (name: string, company_type: "customer_company" | "operator_company") =>
    makeCompany(db, { name: `${M}-CO-${name}`, company_type });
  const C1 = await company("C1 Permian Energy", "customer_company");
  const C2 = await company("C2 Delaware Basin", "customer_company");
  const O1 = await company("O1 Rig Operators", "operator_company");
  const O2 = await company("O2 Frac Services", "operator_company");
  const slug = host.split(".")[0];
  const person = (name: string, company_id: number, over: Parameters<typeof makeUser>[1] = {}) =>
    makeUser(db, {
      name: `${M}-U-${name}`,
      email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${slug}@example.test`,
      company_id,
      password: PASSWORD,
      ...over,
    });
  const ownerUser = await person("OWN-bystander", 1, { isSalesRep: true });
  const c1User = await person("C1-bystander", C1.id);
  const c2User = await person("C2-bystander", C2.id);
  const o2User = await person("O2-bystander", O2.id);

  const part = await makePart(db, { name: `${M}-PART-plug-valve` });
  const jobOf = (tag: string, customer_company_id: number, operator_company_id: number) =>
    makeJob(db, {
      job_number: `${M}-${tag}-JOB`,
      comments: `${M}-${tag}-comment`,
      customer_company_id,
      operator_company_id,
    });
  const J1 = await jobOf("J1", C1.id, O1.id);
  const J2 = await jobOf("J2", C2.id, O2.id);
  const J3 = await jobOf("J3", C2.id, O1.id);
  const inspectionsOf = async (job: typeof J1, tag: string) => {
    const fileId = await storeFile(tdb, `${M}-${tag}-pressure-test.pdf`);
    const made = [];
    for (const n of [1, 2]) {
      made.push(
        await makeInspection(db, {
          job_id: job.id,
          serial_number: `${M}-${tag}-SN${n}`,
          batch: `${M}-${tag}-BATCH`,
          notes: `${M}-${tag}-note`,
          part_id: part.id,
          pressure_test_file_id: fileId,
          custom: { pressure_test_pdf: `/api/files/${fileId}` },
        }),
      );
    }
    return { first: made[0].id, fileId, photo: await photoAndSignature(tdb, made[0].id, `${M}-${tag}`) };
  };
  const i1 = await inspectionsOf(J1, "J1");
  const i2 = await inspectionsOf(J2, "J2");
  const i3 = await inspectionsOf(J3, "J3");

  // Sales & Inventory
  const unit = await makeCategory(db, {
    model: "Business Unit",
    name: `${M}-S-UNIT-North`,
    custom: { locations: ["Yard"] },
  });
  const unit2 = await makeCategory(db, { model: "Business Unit", name: `${M}-S-UNIT-South` });
  const invCategory = await makeCategory(db, { model: "Inventory Category", name: `${M}-S-INVCAT` });
  const itemCategory = await makeCategory(db, { model: "Item Category", name: `${M}-S-ITEMCAT` });
  const productLine = await makeCategory(db, { model: "Product Line", name: `${M}-S-PL-Rentals` });
  const [subCategory] = await db.insert(sub_categories).values({
    company_id: 1,
    category_id: productLine.id,
    name: `${M}-S-SUBPL-Iron`,
  }).returning();
  const [tax] = await db.insert(taxes).values({
    company_id: 1,
    name: `${M}-S-TAX-Midland`,
    state: "TX",
    county: `${M}-S-COUNTY`,
    city: "Midland",
    state_rate: 6.25,
    county_rate: 0.5,
    city_rate: 1.5,
    rate: 8.25,
  }).returning();
  const item = await makeItem(db, {
    item_number: `${M}-S-ITEM-swivel`,
    item_description: `${M}-S-DESC swivel joint`,
    inventory_type: "Itemized",
    category_id: itemCategory.id,
  });
  const serialItem = await makeItem(db, {
    item_number: `${M}-S-ITEM-valve`,
    item_description: `${M}-S-DESC plug valve`,
    inventory_type: "Serialized",
  });
  const row = await makeInventory(db, {
    item_id: item.id,
    business_unit_id: unit.id,
    serial_number: `${M}-S-SN-itemized`,
    inventory_description: `${M}-S-ROW`,
    quantity: 20,
    quantity_out_location: 2,
    category_id: invCategory.id,
  });
  await db.insert(inventory_locations).values({ inventory_id: row.id, name: "Yard", quantity: 2 });
  const serialRow = await makeInventory(db, {
    item_id: serialItem.id,
    business_unit_id: unit.id,
    serial_number: `${M}-S-SN-valve-1`,
    quantity: 1,
  });
  const [template] = await db.insert(templates).values({
    company_id: 1,
    name: `${M}-S-TEMPLATE`,
    business_unit_id: unit.id,
    inventory_ids: [row.id],
  }).returning();

  const ticket = await makeTicket(db, {
    ticket_number: `${M}-S-T-0001`,
    customer_id: C1.id,
    sales_rep_id: ownerUser.id,
    tax_id: tax.id,
    business_unit_id: unit.id,
    product_line_id: productLine.id,
    sub_product_line_id: subCategory.id,
    location: `${M}-S-PAD`,
    notes: `${M}-S-NOTES`,
  });
  const lineFile = await storeFile(tdb, `${M}-S-line-doc.pdf`);
  const line = await makeLine(db, {
    ticket_id: ticket.id,
    inventory_id: row.id,
    quantity: 5,
    quantity_held: 4,
    notes: `${M}-S-LINE`,
    file_id: lineFile,
    doc: `/api/files/${lineFile}`,
  });
  await db.update(inventory).set({ quantity_out: sql`${inventory.quantity_out} + 4` }).where(
    eq(inventory.id, row.id),
  );
  await db.insert(inventory_log).values({
    sale_id: line.id,
    inventory_id: row.id,
    date: "2026-01-05T10:00:00Z",
    quantity_in: 1,
    starting_quantity: 5,
    ending_quantity: 4,
    action: "check-in",
    user_name: `${M}-U-OWN-bystander`,
  });
  await db.insert(inventory_audit).values({
    action: "Check In",
    updated_by_name: `${M}-U-OWN-bystander`,
    inventory_id: row.id,
    serial_number: row.serial_number,
    item_number: item.item_number,
    item_description: item.item_description,
    quantity: 20,
    quantity_change: 1,
    business_unit: unit.name,
    ticket_number: ticket.ticket_number,
    customer_name: C1.name,
    sales_rep_name: ownerUser.name,
    start_date: "2026-01-01T08:00:00Z",
  });
  const [rejection] = await db.insert(rejections).values({
    ticket_id: ticket.id,
    company_id: 1,
    comment: `${M}-S-REJECTION`,
  }).returning();
  const invoice = await makeTicket(db, {
    ticket_number: `${M}-S-T-0002`,
    invoice_number: `${M}-S-INV-0002`,
    invoice_date: "2026-01-10",
    customer_id: C2.id,
    status: "APP",
    isInvoice: true,
    tax_id: tax.id,
    notes: `${M}-S-INVOICE`,
  });
  const soldLine = await makeLine(db, {
    ticket_id: invoice.id,
    inventory_id: row.id,
    quantity: 1,
    quantity_held: 0,
    isSold: true,
    notes: `${M}-S-SOLD`,
  });

  // The signed-in users
  const kinds: Record<UserKind, { company_id: number; permissions: string[]; account_type?: "Data-Entry" }> =
    {
      admin: { company_id: 1, permissions: [...ALL_GRANTS] },
      userAdmin: { company_id: 1, permissions: ["user-admin"] },
      inspector: { company_id: 1, permissions: ["inspector"] },
      jobAdmin: { company_id: 1, permissions: ["job-admin"] },
      partAdmin: { company_id: 1, permissions: ["part-admin"] },
      salesAdmin: { company_id: 1, permissions: ["sales-admin"] },
      noRoles: { company_id: 1, permissions: [] },
      customer: { company_id: C1.id, permissions: [...ALL_GRANTS] },
      operator: { company_id: O1.id, permissions: [] },
      dataEntry: { company_id: 1, permissions: ["inspector", "job-admin"], account_type: "Data-Entry" },
    };
  const types = new Map<number, UserFacts["companyType"]>([
    [1, "inspection_company"],
    [C1.id, "customer_company"],
    [O1.id, "operator_company"],
  ]);
  const users = {} as TenantSide["users"];
  for (const kind of USER_KINDS) {
    const k = kinds[kind];
    const tag = k.company_id === 1 ? "OWN" : k.company_id === C1.id ? "C1" : "O1";
    const u = kind === "admin" ? undefined : await person(`${tag}-${kind}`, k.company_id, {
      permissions: k.permissions,
      account_type: k.account_type ?? "General",
      jobs: kind === "dataEntry" ? [J2.id] : [],
    });
    const email = u?.email ?? ADMIN.email;
    users[kind] = {
      kind,
      id: u?.id ?? 1,
      email,
      token: await env.login(email, u ? PASSWORD : ADMIN.password, host),
      isOwner: k.company_id === 1,
      companyType: types.get(k.company_id)!,
      permissions: k.permissions,
      dataEntry: kind === "dataEntry",
    };
  }

  return {
    slug,
    host,
    marker,
    ownerName: `${slug[0].toUpperCase()}${slug.slice(1)} Inspections`,
    tdb,
    users,
    ids: {
      owner: 1,
      C1: C1.id,
      C2: C2.id,
      O1: O1.id,
      O2: O2.id,
      J1: J1.id,
      J2: J2.id,
      J3: J3.id,
      I1: i1.first,
      I2: i2.first,
      I3: i3.first,
      F1: i1.fileId,
      F2: i2.fileId,
      F3: i3.fileId,
      P1: i1.photo,
      P2: i2.photo,
      P3: i3.photo,
      part: part.id,
      ownerUser: ownerUser.id,
      c1User: c1User.id,
      c2User: c2User.id,
      o2User: o2User.id,
      unit: unit.id,
      unit2: unit2.id,
      invCategory: invCategory.id,
      itemCategory: itemCategory.id,
      productLine: productLine.id,
      subCategory: subCategory.id,
      tax: tax.id,
      item: item.id,
      serialItem: serialItem.id,
      row: row.id,
      serialRow: serialRow.id,
      template: template.id,
      ticket: ticket.id,
      line: line.id,
      lineFile,
      invoice: invoice.id,
      soldLine: soldLine.id,
      rejection: rejection.id,
    },
  };
}

/** The two tenants of the matrix: `acme` (the harness's) and `beta`, each with the marked data set. */
export async function twoTenants(env: TestEnv): Promise<[TenantSide, TenantSide]> {
  const beta = await env.addTenant("beta", "beta.test");
  const a = await fillTenant(env, env.tenant, env.host, "ACME", 1000);
  const b = await fillTenant(env, beta, "beta.test", "BETA", 5000);
  return [a, b];
}

/** Markers a user of `side` must never receive: the other tenant's, and rows outside the user's scope. */
export function forbiddenMarkers(side: TenantSide, other: TenantSide, kind: UserKind): string[] {
  const M = side.marker;
  const out = [`${other.marker}-`, other.ownerName];
  switch (kind) {
    case "customer": // C1: sees job J1 (C1, O1) only, and only its own company's users
      out.push(`${M}-J2-`, `${M}-J3-`, `${M}-CO-C2`, `${M}-CO-O2`, `${M}-U-OWN-`, `${M}-U-C2-`, `${M}-U-O`);
      out.push(`${M}-S-`);
      break;
    case "operator": // O1: sees jobs J1 (C1, O1) and J3 (C2, O1)
      out.push(`${M}-J2-`, `${M}-CO-O2`, `${M}-U-OWN-`, `${M}-U-C`, `${M}-U-O2-`, `${M}-S-`);
      break;
    case "dataEntry": // assigned J2 only
      out.push(`${M}-J1-`, `${M}-J3-`);
      break;
  }
  return out;
}

/** Occurrences of each marker in `text` (only the ones found). */
export function markersIn(text: string, markers: string[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const m of markers) {
    const n = text.split(m).length - 1;
    if (n) found[m] = n;
  }
  return found;
}

/** Every cell of every sheet of an xlsx file, as text (one line per row). */
export async function xlsxText(bytes: Uint8Array): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as never);
  const lines: string[] = [];
  wb.eachSheet((sheet) => {
    lines.push(`# ${sheet.name}`);
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell((cell) => cells.push(String(cell.text ?? "")));
      lines.push(cells.join("\t"));
    });
  });
  return lines.join("\n");
}

/** Every table of a tenant database as one string: equal before and after means nothing changed. */
export async function snapshot(tdb: TenantDb): Promise<Map<string, string>> {
  const tables = await tdb.client.execute(
    // write_version counts commits for the totals cache (decision 019): bookkeeping, not the tenant's data.
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%drizzle%' and name <> 'write_version' order by name",
  );
  const out = new Map<string, string>();
  for (const { name } of tables.rows) {
    const rows = await tdb.client.execute(`select * from "${name}" order by 1`);
    out.set(
      String(name),
      JSON.stringify(
        rows.rows,
        (
          _k,
          v,
        ) => (v instanceof ArrayBuffer ? `bytes:${v.byteLength}` : typeof v === "bigint" ? String(v) : v),
      ),
    );
  }
  return out;
}

/** Names of the tables whose content differs between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n));
}
