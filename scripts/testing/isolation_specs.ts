// How the isolation matrix exercises each route of the app (api/isolation_matrix*_test.ts). Keyed by
// "METHOD /api/path" exactly as routeTable() lists them: a route the app gains without an entry here
// (or in EXCLUDED) fails the matrix's coverage test.
import { type Ids, may, type UserFacts, type UserKind } from "./isolation_fixture.ts";
import { jpegTagged, png } from "./images.ts";

/** The ids a request is aimed at (own, the other tenant's, or out of the caller's scope) and their marker. */
export type Target = Ids & { M: string };

export interface Probe {
  method: string;
  path: string;
  json?: unknown;
  /** a multipart body, made fresh for each request */
  multipart?: () => FormData;
  /** which in-tenant scope the ids of this probe are subject to (customer, operator, Data-Entry users) */
  scope?: Scope;
  /** this probe's own gate, when it differs from the route's */
  gate?: (u: UserFacts) => boolean;
}

/** pt: jobs and what hangs off them (ptScope); users: the users a caller may manage (userScope). */
export type Scope = "pt" | "users";

export type Kind = "list" | "download" | "read-id" | "write";

export interface RouteSpec {
  kind: Kind;
  /** May this user use the route at all (the abilities of lib/policy.ts)? */
  gate: (u: UserFacts) => boolean;
  /** list and download: the query string (all rows) */
  query?: (t: Target) => string;
  /**
   * list and download: more queries, filtering by the rows of `t` (each job, customer, user…): run with
   * the caller's own tenant (scoped users must still get nothing out of scope) and the other tenant's
   */
  filters?: (t: Target) => string[];
  /** text the answer must contain for this user (list, download; read-id: the admin's own row) */
  shows?: (M: string, kind: UserKind) => string | undefined;
  /** read-id and write: the request aimed at the rows of `t` */
  request?: (t: Target) => Probe | Probe[];
  /**
   * The id naming the row the request is aimed at. Aimed at the other tenant, the request is sent twice:
   * with all its ids the other tenant's (a 422 for an unknown reference is fine then) and with only this
   * one (every reference valid here), which must answer 403 or 404. Scoped users also send it with this
   * row in their scope and the rest out of it.
   */
  id?: keyof Ids;
  /** the request carries no id of a row (creates, uploads): only the role gate is checked */
  noIds?: boolean;
  /** statuses that are fine when the ids belong to another tenant (default 403 and 404) */
  foreign?: number[];
}

/** Routes the matrix does not exercise, with the reason. Keep it short. */
export const EXCLUDED: Record<string, string> = {
  // No session involved: the matrix signs in through it; the cross-tenant sign-in has its own test.
  "POST /api/login/access-token": "sign-in itself; cross-tenant sign-in tested separately",
  // Answers 204 signed in or not, and would end the matrix's own sessions; its cross-tenant case (another
  // tenant's session revokes nothing here) is checked in api/isolation_matrix_test.ts.
  "POST /api/logout": "answers 204 to anyone; cross-tenant sign-out tested separately",
};

// Gates, from the abilities of lib/policy.ts.
const any = () => true;
const owner = (u: UserFacts) => u.isOwner;
const ptWriter = (u: UserFacts) => u.companyType === "inspection_company";
const salesReader = owner;
const salesAdmin = (u: UserFacts) => u.isOwner && may(u, "sales.admin");

const all = () => "page=1&rowsPerPage=-1";
const q = (params: Record<string, string | number>) =>
  `page=1&rowsPerPage=-1&${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const jobs = (t: Target) => [["J1", t.J1], ["J2", t.J2], ["J3", t.J3]] as const;
const jobFilters = (t: Target) => [
  ...jobs(t).map(([tag]) => q({ search_job_number: `${t.M}-${tag}-` })),
  ...["C1", "C2"].map((c) => q({ search_customer_name: `${t.M}-CO-${c}` })),
  ...["O1", "O2"].map((o) => q({ search_operator_name: `${t.M}-CO-${o}` })),
];
const inspectionFilters = (t: Target) => [
  ...jobFilters(t),
  ...jobs(t).map(([, id]) => q({ job_id: id })),
  ...jobs(t).map(([tag]) => q({ search_serial_number: `${t.M}-${tag}-SN1` })),
  ...jobs(t).map(([tag]) => q({ search_batch: `${t.M}-${tag}-BATCH` })),
];
const userFilters = (t: Target) => [
  ...["OWN", "C1", "C2", "O1", "O2"].map((c) => q({ search_name: `${t.M}-U-${c}-` })),
  ...[t.owner, t.C1, t.C2, t.O1, t.O2].map((id) => q({ company_id: id })),
];
const companyFilters = (t: Target) =>
  ["C1", "C2", "O1", "O2"].map((c) => q({ search_name: `${t.M}-CO-${c}` }));
/** downloads as the browser calls them: the list's filters, page -1 (every row) */
const download = () => "page=-1";
/** A UTC day `n` days from today (the fixture's lines start today). */
const calendarDay = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const today = "2026-01-15";

/** What each scoped user must see of the jobs (and inspections) lists. */
const jobShown = (M: string, kind: UserKind) =>
  kind === "customer"
    ? `${M}-J1-`
    : kind === "operator"
    ? `${M}-J3-`
    : kind === "dataEntry"
    ? `${M}-J2-`
    : kind === "admin"
    ? `${M}-J2-` // what the customer and the operator must not see: the control of their checks
    : undefined;
const adminShows = (text: (M: string) => string) => (M: string, kind: UserKind) =>
  kind === "admin" ? text(M) : undefined;

const pdfPart = (name: string) => {
  const form = new FormData();
  form.set(
    "file",
    new File([new TextEncoder().encode(`%PDF-1.4\n% ${name}\n%%EOF\n`)], name, {
      type: "application/pdf",
    }),
  );
  return form;
};

/** A multipart form with the image as `file` (and a caption). */
const imagePart = (bytes: Uint8Array, name: string, caption?: string) => {
  const form = new FormData();
  form.set(
    "file",
    new File([bytes as BlobPart], name, { type: name.endsWith(".png") ? "image/png" : "image/jpeg" }),
  );
  if (caption !== undefined) form.set("caption", caption);
  return form;
};
/** Adding or removing an inspection's photos and signature: inspectors and job-admins. */
const inspectionEditor = (u: UserFacts) => ptWriter(u) && may(u, "inspections.media");

const jobBody = (t: Target) => ({
  date: today,
  job_number: `${t.M}-J1-JOB`,
  customer_company_id: t.C1,
  operator_company_id: t.O1,
  district: "Permian",
  inspector: "Dwayne Carter",
  uv_serial_number: "UV-1001",
  uv_recalibration_date: today,
  blacklight_reading: "1200",
  ut_serial_number: "UT-2002",
  ut_recalibration_date: today,
  comments: `${t.M}-J1-comment`,
});
const inspectionBody = (t: Target) => ({
  id: t.I1,
  job_id: t.J1,
  date: today,
  serial_number: `${t.M}-J1-SN1`,
  part_id: t.part,
  batch: `${t.M}-J1-BATCH`,
  visual_pass: true,
  notes: `${t.M}-J1-note`,
});
const userBody = (t: Target) => ({
  id: t.c1User,
  name: `${t.M}-U-C1-bystander`,
  email: `c1.bystander.${t.M.toLowerCase()}@example.test`,
  phone: "555-0100",
  account_type: "General",
  company_id: t.C1,
  permissions: [],
  active: true,
});
const itemBody = (t: Target) => ({
  item_number: `${t.M}-S-ITEM-swivel`,
  item_description: `${t.M}-S-DESC swivel joint`,
  rate: 125,
  units: "Per Day",
  inventory_type: "Itemized",
  item_type: "Rental",
  category_id: t.itemCategory,
});
const taxBody = (t: Target) => ({
  name: `${t.M}-S-TAX-Midland`,
  state: "TX",
  county: `${t.M}-S-COUNTY`,
  city: "Midland",
  state_rate: 6.25,
  county_rate: 0.5,
  city_rate: 1.5,
});
const rowBody = (t: Target) => ({
  item_id: t.item,
  business_unit_id: t.unit,
  serial_number: `${t.M}-S-SN-itemized`,
  inventory_description: `${t.M}-S-ROW`,
  quantity: 20,
  category_id: t.invCategory,
});
const templateBody = (t: Target) => ({
  name: `${t.M}-S-TEMPLATE`,
  business_unit_id: t.unit,
  inventory_ids: [t.row],
});
const lineBody = (t: Target) => ({
  ticket_id: t.ticket,
  inventory_id: t.row,
  quantity: 5,
  price: 100,
  duration: 1,
  start_date: "2026-01-01T08:00:00Z",
  notes: `${t.M}-S-LINE`,
});
const ticketBody = (t: Target) => ({
  customer_id: t.C1,
  ticket_date: today,
  status: "OPEN",
  tax_id: t.tax,
  business_unit_id: t.unit,
  product_line_id: t.productLine,
  sub_product_line_id: t.subCategory,
  sales_rep_id: t.ownerUser,
  location: `${t.M}-S-PAD`,
  notes: `${t.M}-S-NOTES`,
});

/**
 * A serial's history, as each user may see it: an inspected serial (the first of job J1, which
 * visibleTarget and hiddenTarget swap for J2's: the serial follows the job) and a stock serial with ticket
 * lines and audit rows (Sales read only; for anyone else it has no history: 404).
 */
const serialProbes = (suffix: string) => (t: Target): Probe[] => [
  { method: "GET", path: `/api/serials/${t.M}-${t.J1 === t.J2 ? "J2" : "J1"}-SN1${suffix}`, scope: "pt" },
  { method: "GET", path: `/api/serials/${t.M}-S-SN-itemized${suffix}`, gate: salesReader },
];

/** A row of stock for `t`'s business unit, posted to the inventory batch upload or its preview. */
const inventoryBatch = (path: string) => (t: Target): Probe => ({
  method: "POST",
  path,
  json: [{
    item_number: `${t.M}-S-ITEM-swivel`,
    business_unit_id: t.unit,
    serial_number: `${t.M}-S-SN-batch`,
    quantity: 1,
  }],
});

export const SPECS: Record<string, RouteSpec> = {
  // ---- platform and administration
  "GET /api/admin/users/me": { kind: "list", gate: any, query: () => "" },
  "GET /api/admin/companies": {
    kind: "list",
    filters: companyFilters,
    gate: owner,
    query: all,
    shows: adminShows((M) => `${M}-CO-C2`),
  },
  "GET /api/admin/companies/download": {
    kind: "download",
    filters: companyFilters,
    gate: owner,
    query: download,
    shows: adminShows((M) => `${M}-CO-C2`),
  },
  "GET /api/companies": {
    kind: "list",
    filters: companyFilters,
    gate: any,
    query: all,
    shows: (M, k) => (k === "admin" ? `${M}-CO-O2` : k === "customer" ? `${M}-CO-C1` : undefined),
  },
  "POST /api/companies": {
    kind: "write",
    id: "C2",
    gate: (u) => u.isOwner && may(u, "companies.edit"),
    request: (t) => ({
      method: "POST",
      path: "/api/companies",
      json: { id: t.C2, name: `${t.M}-CO-C2 Delaware Basin`, company_type: "customer_company" },
    }),
  },
  "PATCH /api/companies": {
    kind: "write",
    id: "C2",
    gate: (u) => u.isOwner && may(u, "companies.edit"),
    request: (t) => ({
      method: "PATCH",
      path: "/api/companies",
      json: { id: t.C2, name: `${t.M}-CO-C2 Delaware Basin`, company_type: "customer_company" },
    }),
  },
  "DELETE /api/companies/:id": {
    kind: "write",
    id: "C2",
    gate: (u) => u.isOwner && may(u, "companies.delete"),
    request: (t) => ({ method: "DELETE", path: `/api/companies/${t.C2}` }),
  },
  "GET /api/admin/users": {
    kind: "list",
    filters: userFilters,
    gate: any,
    query: all,
    shows: (M, k) => (k === "admin" ? `${M}-U-C2-` : k === "customer" ? `${M}-U-C1-` : undefined),
  },
  "GET /api/admin/users/download": {
    kind: "download",
    filters: userFilters,
    gate: any,
    query: download,
    shows: (M, k) => (k === "admin" ? `${M}-U-C2-` : k === "operator" ? `${M}-U-O1-` : undefined),
  },
  "POST /api/admin/users": {
    kind: "write",
    id: "c1User",
    gate: (u) => may(u, "users.edit"),
    request: (t) => ({ method: "POST", path: "/api/admin/users", json: userBody(t), scope: "users" }),
  },
  // ends every session of a user: anyone for themselves, a user-admin for users in their scope
  "POST /api/admin/users/logout-everywhere": {
    kind: "write",
    id: "c1User",
    gate: (u) => may(u, "users.edit"),
    request: (t) => ({
      method: "POST",
      path: "/api/admin/users/logout-everywhere",
      json: { id: t.c1User },
      scope: "users",
    }),
  },
  "DELETE /api/admin/users": {
    kind: "write",
    id: "c1User",
    gate: (u) => may(u, "users.delete"),
    request: (t) => ({ method: "DELETE", path: "/api/admin/users", json: { id: t.c1User }, scope: "users" }),
  },
  "GET /api/companyusers": {
    kind: "list",
    filters: userFilters,
    gate: any,
    query: all,
    shows: (M, k) => (k === "customer" ? `${M}-U-C1-` : undefined),
  },
  "GET /api/users": {
    kind: "list",
    filters: userFilters,
    gate: any,
    query: () => "page=1&rowsPerPage=-1",
    shows: adminShows((M) => `${M}-U-O2-`),
  },

  // ---- pressure testing
  "GET /api/pt/jobs": { kind: "list", gate: any, query: all, shows: jobShown, filters: jobFilters },
  "GET /api/pt/jobs/download": {
    kind: "download",
    gate: any,
    query: download,
    shows: jobShown,
    filters: jobFilters,
  },
  "GET /api/pt/jobs/:id/report": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-J1-JOB`),
    id: "J1",
    gate: any,
    request: (t) => ({ method: "GET", path: `/api/pt/jobs/${t.J1}/report`, scope: "pt" }),
  },
  "GET /api/pt/jobs/:id": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-J1-JOB`),
    id: "J1",
    gate: any,
    request: (t) => ({ method: "GET", path: `/api/pt/jobs/${t.J1}`, scope: "pt" }),
  },
  "POST /api/pt/jobs": {
    kind: "write",
    // Data-Entry users work only in the jobs assigned to them: they do not create jobs
    gate: (u) => ptWriter(u) && !u.dataEntry,
    // a new job for the target's companies: another tenant's (or an unseen) company is refused
    request: (t) => ({ method: "POST", path: "/api/pt/jobs", json: jobBody(t) }),
    foreign: [403, 404, 422],
  },
  "PATCH /api/pt/jobs": {
    kind: "write",
    id: "J1",
    gate: (u) => ptWriter(u) && may(u, "jobs.edit"),
    request: (t) => ({
      method: "PATCH",
      path: "/api/pt/jobs",
      json: { id: t.J1, ...jobBody(t) },
      scope: "pt",
    }),
  },
  "DELETE /api/pt/jobs/:id": {
    kind: "write",
    id: "J1",
    gate: (u) => ptWriter(u) && may(u, "jobs.edit"),
    request: (t) => ({ method: "DELETE", path: `/api/pt/jobs/${t.J1}`, scope: "pt" }),
  },
  // the parts catalogue is the inspection company's own (customers and operators: 403)
  "GET /api/pt/parts": { kind: "list", gate: ptWriter, query: all, shows: adminShows((M) => `${M}-PART-`) },
  "GET /api/pt/parts/download": {
    kind: "download",
    gate: ptWriter,
    query: download,
    shows: adminShows((M) => `${M}-PART-`),
  },
  "POST /api/pt/parts": {
    kind: "write",
    id: "part",
    gate: (u) => ptWriter(u) && may(u, "parts.edit"),
    request: (t) => ({
      method: "POST",
      path: "/api/pt/parts",
      json: {
        id: t.part,
        name: `${t.M}-PART-plug-valve`,
        description: "2in 1502 plug valve",
        manufacturer: "SPM",
      },
    }),
  },
  "PATCH /api/pt/parts": {
    kind: "write",
    id: "part",
    gate: (u) => ptWriter(u) && may(u, "parts.edit"),
    request: (t) => ({
      method: "PATCH",
      path: "/api/pt/parts",
      json: {
        id: t.part,
        name: `${t.M}-PART-plug-valve`,
        description: "2in 1502 plug valve",
        manufacturer: "SPM",
      },
    }),
  },
  "DELETE /api/pt/parts/:id": {
    kind: "write",
    id: "part",
    gate: (u) => ptWriter(u) && may(u, "parts.edit"),
    request: (t) => ({ method: "DELETE", path: `/api/pt/parts/${t.part}` }),
  },
  "GET /api/parts": { kind: "list", gate: ptWriter, query: all, shows: adminShows((M) => `${M}-PART-`) },
  "GET /api/pt/inspections": {
    kind: "list",
    gate: any,
    query: all,
    shows: jobShown,
    filters: inspectionFilters,
  },
  "GET /api/pt/inspections/download": {
    kind: "download",
    gate: any,
    query: download,
    shows: jobShown,
    filters: inspectionFilters,
  },
  "GET /api/pt/inspections/:id/report": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-J1-SN1`),
    id: "I1",
    gate: any,
    request: (t) => ({ method: "GET", path: `/api/pt/inspections/${t.I1}/report`, scope: "pt" }),
  },
  "GET /api/pt/inspections/labels": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-J1-SN1`),
    id: "J1",
    gate: any,
    request: (t) => ({
      method: "GET",
      path: `/api/pt/inspections/labels?job_id=${t.J1}&size=avery-5160`,
      scope: "pt",
    }),
  },
  "POST /api/pt/inspections/batch": {
    kind: "write",
    id: "J1",
    gate: (u) => ptWriter(u) && may(u, "inspections.enter"),
    request: (t) => ({
      method: "POST",
      path: "/api/pt/inspections/batch",
      json: {
        job_id: t.J1,
        date: today,
        serial_numbers: [`${t.M}-J1-SN1`],
        batch: `${t.M}-J1-BATCH`,
        part_id: t.part,
      },
      scope: "pt",
    }),
    foreign: [403, 404, 422],
  },
  "POST /api/pt/inspections": {
    kind: "write",
    id: "I1",
    gate: ptWriter,
    request: (t) => [
      // with an id: an update (job-admin)
      {
        method: "POST",
        path: "/api/pt/inspections",
        json: inspectionBody(t),
        scope: "pt",
        gate: (u) => ptWriter(u) && may(u, "inspections.edit"),
      },
      // without: a new inspection on the job (inspector)
      {
        method: "POST",
        path: "/api/pt/inspections",
        json: { ...inspectionBody(t), id: undefined, serial_number: `${t.M}-J1-SN-new` },
        scope: "pt",
        gate: (u) => ptWriter(u) && may(u, "inspections.enter"),
      },
    ],
    foreign: [403, 404, 422],
  },
  "PATCH /api/pt/inspections": {
    kind: "write",
    id: "I1",
    gate: (u) => ptWriter(u) && may(u, "inspections.edit"),
    request: (t) => ({ method: "PATCH", path: "/api/pt/inspections", json: inspectionBody(t), scope: "pt" }),
  },
  "DELETE /api/pt/inspections/:id": {
    kind: "write",
    id: "I1",
    gate: (u) => ptWriter(u) && may(u, "inspections.edit"),
    request: (t) => ({ method: "DELETE", path: `/api/pt/inspections/${t.I1}`, scope: "pt" }),
  },
  "GET /api/pt/inspections/:id/photos": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-J1-PHOTO`),
    id: "I1",
    gate: any,
    request: (t) => ({ method: "GET", path: `/api/pt/inspections/${t.I1}/photos`, scope: "pt" }),
  },
  "POST /api/pt/inspections/:id/photos": {
    kind: "write",
    id: "I1",
    gate: inspectionEditor,
    request: (t) => ({
      method: "POST",
      path: `/api/pt/inspections/${t.I1}/photos`,
      multipart: () => imagePart(jpegTagged(`${t.M}-J1-upload`), "photo.jpg", `${t.M}-J1-caption`),
      scope: "pt",
    }),
  },
  "DELETE /api/pt/inspections/:id/photos/:photoId": {
    kind: "write",
    id: "P1",
    gate: inspectionEditor,
    request: (t) => ({ method: "DELETE", path: `/api/pt/inspections/${t.I1}/photos/${t.P1}`, scope: "pt" }),
  },
  "PUT /api/pt/inspections/:id/signature": {
    kind: "write",
    id: "I1",
    gate: inspectionEditor,
    request: (t) => ({
      method: "PUT",
      path: `/api/pt/inspections/${t.I1}/signature`,
      multipart: () => imagePart(png(60, 20), "signature.png"),
      scope: "pt",
    }),
  },
  "DELETE /api/pt/inspections/:id/signature": {
    kind: "write",
    id: "I1",
    gate: inspectionEditor,
    request: (t) => ({ method: "DELETE", path: `/api/pt/inspections/${t.I1}/signature`, scope: "pt" }),
  },
  "GET /api/files/:id": {
    kind: "read-id",
    gate: any,
    request: (t) => [
      { method: "GET", path: `/api/files/${t.F1}`, scope: "pt" },
      // a ticket line's document: Sales & Inventory is the owner company's
      { method: "GET", path: `/api/files/${t.lineFile}`, gate: salesReader },
    ],
  },

  // ---- sales and inventory: reference data
  "GET /api/sales/items": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-ITEM-`),
  },
  "GET /api/sales/items/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-ITEM-`),
  },
  "POST /api/sales/items/batch": {
    kind: "write",
    gate: salesAdmin,
    noIds: true,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/items/batch",
      json: [{ ...itemBody(t), item_number: `${t.M}-S-ITEM-batch`, category_id: undefined }],
    }),
  },
  "POST /api/sales/items/batch/preview": {
    kind: "write",
    gate: salesAdmin,
    noIds: true,
    // writes nothing; the same checks as the upload
    request: (t) => ({
      method: "POST",
      path: "/api/sales/items/batch/preview",
      json: [{ ...itemBody(t), item_number: `${t.M}-S-ITEM-batch`, category_id: undefined }],
    }),
  },
  "POST /api/sales/items": {
    kind: "write",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/items",
      json: { ...itemBody(t), item_number: `${t.M}-S-ITEM-new` },
    }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/items": {
    kind: "write",
    id: "item",
    gate: salesAdmin,
    request: (t) => ({
      method: "PUT",
      path: "/api/sales/items",
      json: { id: t.item, ...itemBody(t), item_number: `${t.M}-S-ITEM-renamed` },
    }),
  },
  "DELETE /api/sales/items/:id": {
    kind: "write",
    id: "serialItem",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/items/${t.serialItem}` }),
  },
  "GET /api/sales/taxes": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-TAX-`),
  },
  "GET /api/sales/taxes/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-TAX-`),
  },
  "POST /api/sales/taxes": {
    kind: "write",
    gate: salesAdmin,
    noIds: true,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/taxes",
      json: { ...taxBody(t), name: `${t.M}-S-TAX-new` },
    }),
  },
  "PUT /api/sales/taxes": {
    kind: "write",
    id: "tax",
    gate: salesAdmin,
    request: (t) => ({
      method: "PUT",
      path: "/api/sales/taxes",
      json: { id: t.tax, ...taxBody(t), name: `${t.M}-S-TAX-renamed` },
    }),
  },
  "DELETE /api/sales/taxes/:id": {
    kind: "write",
    id: "tax",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/taxes/${t.tax}` }),
  },
  "GET /api/sales/categories": {
    kind: "list",
    gate: salesReader,
    query: () => "model=Business%20Unit&page=1&rowsPerPage=-1",
    shows: adminShows((M) => `${M}-S-UNIT-`),
  },
  "GET /api/sales/categories/download": {
    kind: "download",
    gate: salesReader,
    query: () => "model=Business%20Unit&page=-1",
    shows: adminShows((M) => `${M}-S-UNIT-`),
  },
  "POST /api/sales/categories": {
    kind: "write",
    gate: salesAdmin,
    noIds: true,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/categories",
      json: { model: "Business Unit", name: `${t.M}-S-UNIT-new` },
    }),
  },
  "PUT /api/sales/categories": {
    kind: "write",
    id: "unit2",
    gate: salesAdmin,
    request: (t) => ({
      method: "PUT",
      path: "/api/sales/categories",
      json: { id: t.unit2, model: "Business Unit", name: `${t.M}-S-UNIT-South-renamed` },
    }),
  },
  "DELETE /api/sales/categories/:id": {
    kind: "write",
    id: "unit2",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/categories/${t.unit2}` }),
  },
  "GET /api/sales/sub_categories": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-SUBPL-`),
  },
  "GET /api/sales/sub_categories/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-SUBPL-`),
  },
  "POST /api/sales/sub_categories": {
    kind: "write",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/sub_categories",
      json: { category_id: t.productLine, name: `${t.M}-S-SUBPL-new` },
    }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/sub_categories": {
    kind: "write",
    id: "subCategory",
    gate: salesAdmin,
    request: (t) => ({
      method: "PUT",
      path: "/api/sales/sub_categories",
      json: { id: t.subCategory, category_id: t.productLine, name: `${t.M}-S-SUBPL-Iron-renamed` },
    }),
  },
  "DELETE /api/sales/sub_categories/:id": {
    kind: "write",
    id: "subCategory",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/sub_categories/${t.subCategory}` }),
  },

  // ---- inventory
  "GET /api/sales/inventory": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-SN-`),
  },
  "GET /api/sales/inventory/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-SN-`),
  },
  "GET /api/sales/inventory-locations": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-SN-itemized`),
  },
  "GET /api/sales/inventory-locations/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-SN-itemized`),
  },
  "POST /api/sales/inventory/batch": {
    kind: "write",
    gate: salesAdmin,
    // rows name their item; another tenant's business unit is an unknown one (422 naming the row)
    request: inventoryBatch("/api/sales/inventory/batch"),
    foreign: [403, 404, 422],
  },
  "POST /api/sales/inventory/batch/preview": {
    kind: "write",
    gate: salesAdmin,
    // writes nothing; the same checks as the upload
    request: inventoryBatch("/api/sales/inventory/batch/preview"),
    foreign: [403, 404, 422],
  },
  "PATCH /api/sales/inventory/quantity": {
    kind: "write",
    id: "row",
    gate: salesAdmin,
    request: (t) => ({
      method: "PATCH",
      path: "/api/sales/inventory/quantity",
      json: [{ id: t.row, quantity: 20 }],
    }),
  },
  "POST /api/sales/inventory/business-unit-transfer": {
    kind: "write",
    id: "row",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/inventory/business-unit-transfer",
      json: { inventory_id: t.row, to_business_unit_id: t.unit2, quantity: 1 },
    }),
  },
  "POST /api/sales/inventory/location-transfer": {
    kind: "write",
    id: "row",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/inventory/location-transfer",
      json: { inventory_id: t.row, fromLocation: "Yard", toLocation: "Base", quantity: 1 },
    }),
  },
  "POST /api/sales/inventory": {
    kind: "write",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/inventory",
      json: { ...rowBody(t), business_unit_id: t.unit2, serial_number: `${t.M}-S-SN-new` },
    }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/inventory": {
    kind: "write",
    id: "row",
    gate: salesAdmin,
    request: (t) => ({ method: "PUT", path: "/api/sales/inventory", json: { id: t.row, ...rowBody(t) } }),
  },
  "DELETE /api/sales/inventory/:id": {
    kind: "write",
    id: "serialRow",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/inventory/${t.serialRow}` }),
  },
  "GET /api/sales/inventory/labels": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-SN-valve-1`),
    id: "serialRow",
    gate: salesReader,
    request: (t) => ({
      method: "GET",
      path: `/api/sales/inventory/labels?ids=${t.serialRow}&size=avery-5160`,
    }),
  },
  "GET /api/sales/audit/inventory-rows": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-SN-itemized`),
  },
  "GET /api/sales/audit/inventory-rows/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-SN-itemized`),
  },
  "POST /api/sales/batch/parse": {
    kind: "write",
    gate: salesAdmin,
    noIds: true,
    request: () => ({
      method: "POST",
      path: "/api/sales/batch/parse",
      multipart: () => {
        const form = new FormData();
        form.set("file", new File(["item_number,quantity\nX,1\n"], "rows.csv", { type: "text/csv" }));
        return form;
      },
    }),
  },
  "GET /api/sales/templates": {
    kind: "list",
    gate: salesReader,
    // one unit's templates (none without a unit); another tenant's unit id finds nothing
    query: (t) => `search_business_unit=${t.unit}&page=1&rowsPerPage=-1`,
    shows: adminShows((M) => `${M}-S-TEMPLATE`),
  },
  "GET /api/sales/templates/download": {
    kind: "download",
    gate: salesReader,
    query: (t) => `search_business_unit=${t.unit}&page=-1`,
    shows: adminShows((M) => `${M}-S-TEMPLATE`),
  },
  "GET /api/sales/templates/business-unit/:id": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-TEMPLATE`),
    id: "unit",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/templates/business-unit/${t.unit}` }),
  },
  "POST /api/sales/templates": {
    kind: "write",
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/templates",
      json: { ...templateBody(t), name: `${t.M}-S-TEMPLATE-new` },
    }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/templates": {
    kind: "write",
    id: "template",
    gate: salesAdmin,
    request: (t) => ({
      method: "PUT",
      path: "/api/sales/templates",
      json: { id: t.template, ...templateBody(t), name: `${t.M}-S-TEMPLATE-renamed` },
    }),
  },
  "DELETE /api/sales/templates/:id": {
    kind: "write",
    id: "template",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/templates/${t.template}` }),
  },
  "GET /api/sales/inventory-rows": {
    kind: "list",
    gate: salesReader,
    // the line picker of a ticket; another tenant's ticket id finds nothing
    query: (t) => `ticket_id=${t.ticket}`,
    shows: adminShows((M) => `${M}-S-SN-`),
  },

  // ---- tickets, lines and what moves them
  "GET /api/sales/sales": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-T-0001`),
  },
  "GET /api/sales/sales/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-T-0001`),
  },
  "GET /api/sales/sales/ticket": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-LINE`),
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/sales/ticket?ticket_id=${t.ticket}` }),
  },
  "GET /api/sales/sales/:id": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-LINE`),
    id: "line",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/sales/${t.line}` }),
  },
  "GET /api/sales/availability": {
    kind: "list",
    gate: salesReader,
    // the calendar of the item in the unit: the fixture's line holds from today on, with no end
    query: (t) => `item_id=${t.item}&business_unit=${t.unit}&from=${calendarDay(-1)}&to=${calendarDay(30)}`,
    shows: adminShows((M) => `${M}-S-T-0001`),
  },
  "POST /api/sales/sales/reorder": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/sales/reorder",
      json: { ticket_id: t.ticket, items: [{ id: t.line, order: 0 }] },
    }),
  },
  "POST /api/sales/sales": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "POST", path: "/api/sales/sales", json: lineBody(t) }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/sales": {
    kind: "write",
    id: "line",
    gate: salesAdmin, // Edit on line rows is sales-admin's
    request: (t) => ({ method: "PUT", path: "/api/sales/sales", json: { id: t.line, ...lineBody(t) } }),
  },
  "POST /api/sales/sales/:id/attachment": {
    kind: "write",
    id: "line",
    // the fixture's line has a document: replacing one is editing the line (a first one is anyone's)
    gate: salesAdmin,
    request: (t) => ({
      method: "POST",
      path: `/api/sales/sales/${t.line}/attachment`,
      multipart: () => pdfPart(`${t.M}-S-upload.pdf`),
    }),
  },
  "DELETE /api/sales/sales/:id/attachment": {
    kind: "write",
    id: "line",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/sales/${t.line}/attachment` }),
  },
  "DELETE /api/sales/sales/:id": {
    kind: "write",
    id: "line",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/sales/${t.line}` }),
  },
  "POST /api/sales/inventory/check-in": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/inventory/check-in",
      json: { ticket_id: t.ticket, line_items: [t.line], quantities_in: [1] },
    }),
  },
  "GET /api/sales/sales/:id/inventory-log": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-U-OWN-bystander`),
    id: "line",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/sales/${t.line}/inventory-log` }),
  },
  "POST /api/sales/sales/reclass": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/sales/reclass",
      json: {
        ticket_id: t.ticket,
        rows: [{
          sale_id: t.line,
          reclass_date: "2026-01-06",
          from_inventory_id: t.row,
          to_inventory_id: t.serialRow,
          reclass_quantity: 1,
        }],
      },
    }),
  },
  "POST /api/sales/tickets/transfer": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/tickets/transfer",
      json: { ticket_id: t.ticket, line_ids: [t.line] },
    }),
  },
  "POST /api/sales/tickets/bill-back": {
    kind: "write",
    id: "invoice",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/tickets/bill-back",
      json: { ticket_id: t.invoice, line_ids: [t.soldLine] },
    }),
  },
  "GET /api/sales/tickets": {
    kind: "list",
    gate: salesReader,
    query: all,
    shows: adminShows((M) => `${M}-S-T-0001`),
  },
  "GET /api/sales/tickets/download": {
    kind: "download",
    gate: salesReader,
    query: download,
    shows: adminShows((M) => `${M}-S-T-0001`),
  },
  "GET /api/sales/tickets/:id": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-T-0001`),
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/tickets/${t.ticket}` }),
  },
  "POST /api/sales/tickets": {
    kind: "write",
    gate: salesReader,
    request: (t) => ({ method: "POST", path: "/api/sales/tickets", json: ticketBody(t) }),
    foreign: [403, 404, 422],
  },
  "PUT /api/sales/tickets": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "PUT", path: "/api/sales/tickets", json: { id: t.ticket, ...ticketBody(t) } }),
  },
  "DELETE /api/sales/tickets/:id": {
    kind: "write",
    id: "ticket",
    gate: salesAdmin,
    request: (t) => ({ method: "DELETE", path: `/api/sales/tickets/${t.ticket}` }),
  },
  "GET /api/sales/rejections": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-REJECTION`),
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/rejections?ticket_id=${t.ticket}` }),
  },
  "POST /api/sales/rejections": {
    kind: "write",
    id: "ticket",
    gate: salesReader,
    request: (t) => ({
      method: "POST",
      path: "/api/sales/rejections",
      json: { ticket_id: t.ticket, comment: `${t.M}-S-REJECTION-2`, resolved: false },
    }),
  },

  // ---- one serial's history across both apps (inspections scoped by PT; stock, lines and audit: Sales)
  "GET /api/serials/:serial": {
    kind: "read-id",
    gate: any,
    shows: adminShows((M) => `${M}-J1-SN1`),
    request: serialProbes(""),
  },
  "GET /api/serials/:serial/download": {
    kind: "read-id",
    gate: any,
    shows: adminShows((M) => `${M}-J1-SN1`),
    request: serialProbes("/download?page=-1"),
  },
  "GET /api/sales/ticketpdf": {
    kind: "read-id",
    shows: adminShows((M) => `${M}-S-T-0001`),
    id: "ticket",
    gate: salesReader,
    request: (t) => ({ method: "GET", path: `/api/sales/ticketpdf?ticket_id=${t.ticket}` }),
  },
};

/** The ids a scoped user must not reach, in their own tenant: the same requests, aimed out of scope. */
export function hiddenTarget(own: Target, kind: UserKind): Target | undefined {
  switch (kind) {
    case "customer": // C1 sees J1 only, and users of C1
      return { ...own, J1: own.J2, I1: own.I2, F1: own.F2, P1: own.P2, C1: own.C2, c1User: own.c2User };
    case "operator": // O1 sees J1 and J3, and users of O1
      return { ...own, J1: own.J2, I1: own.I2, F1: own.F2, P1: own.P2, C1: own.C2, c1User: own.o2User };
    case "dataEntry": // assigned J2: J1 is out of scope; not a user-admin, so C1's users are too
      return own;
  }
  return undefined;
}

/** The ids of the data set a scoped user does see (Data-Entry: job J2). */
export function visibleTarget(own: Target, kind: UserKind): Target {
  return kind === "dataEntry" ? { ...own, J1: own.J2, I1: own.I2, F1: own.F2, P1: own.P2 } : own;
}

/**
 * Which scopes restrict a user kind: customer, operator and Data-Entry users see part of the jobs, and
 * (not being user-admins of the owner company) only their own company's users.
 */
export function scopesOf(kind: UserKind): Scope[] {
  return kind === "customer" || kind === "operator" || kind === "dataEntry" ? ["pt", "users"] : [];
}
