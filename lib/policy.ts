// The one permission policy: roles and permissions (the user's merged `permissions` list) and company
// conditions (owner company, company_type), combined into named abilities. Services require them
// (`requireAbility`), the page guard checks them before a page renders (ui/lib/page_guard.ts), the
// menus show what they allow, and page routes hand islands the answers (`can`). Pure: no database,
// no framework.
import { AppError } from "./errors.ts";

/** Role names of the spec's "Roles and permissions". */
export const ROLES = [
  "superuser",
  "user-admin",
  "job-admin",
  "inspector",
  "part-admin",
  "sales-admin",
] as const;
export type Role = (typeof ROLES)[number];

/** Permission options, merged with the role names into one list on the user. */
export const PERMISSIONS = [
  "approval-authority",
  "notify-ready-to-bill",
  "notify-waiting-for-approval",
  "notify-waiting-to-invoice",
  "email-notifications",
  "text-message-notifications",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ALL_GRANTS: readonly string[] = [...ROLES, ...PERMISSIONS];

/**
 * What people read for each role and permission (the user form): a label and what it lets the user do. The
 * wire keeps the spec's names. The notification flags are kept on the user; nothing is sent yet.
 */
export const GRANT_INFO: Record<Role | Permission, { label: string; description: string }> = {
  "superuser": {
    label: "Superuser",
    description: "Everything, including deleting companies and their settings.",
  },
  "user-admin": {
    label: "User admin",
    description: "Adds and edits users and companies; can force a password reset.",
  },
  "job-admin": { label: "Job admin", description: "Edits jobs; edits and deletes inspections." },
  "inspector": { label: "Inspector", description: "Enters inspections and batches." },
  "part-admin": { label: "Part admin", description: "Edits the parts catalogue." },
  "sales-admin": {
    label: "Sales admin",
    description: "Manages items, inventory, templates and the sales lists' records.",
  },
  "approval-authority": {
    label: "Approval authority",
    description: "Approves tickets and creates invoices.",
  },
  "notify-ready-to-bill": {
    label: "Notify: ready to bill",
    description: "Marked for notices when a ticket is ready to bill (not sent yet).",
  },
  "notify-waiting-for-approval": {
    label: "Notify: waiting for approval",
    description: "Marked for notices when a ticket waits for approval (not sent yet).",
  },
  "notify-waiting-to-invoice": {
    label: "Notify: waiting to invoice",
    description: "Marked for notices when an approved ticket waits to be invoiced (not sent yet).",
  },
  "email-notifications": { label: "Notices by email", description: "Notices go by email (not sent yet)." },
  "text-message-notifications": {
    label: "Notices by text message",
    description: "Notices go by text message (not sent yet).",
  },
};

/** What the policy looks at. */
export interface PolicyUser {
  id?: number;
  permissions: readonly string[];
  account_type?: string | null;
  company: {
    isOwner: boolean;
    company_type: string;
    settings?: Record<string, unknown> | null;
  };
}

type Rule = (u: PolicyUser) => boolean;

const grant = (...names: (Role | Permission)[]): Rule => (u) => names.some((n) => u.permissions.includes(n));
const all = (...rules: Rule[]): Rule => (u) => rules.every((r) => r(u));
/** The tenant's own company: Sales & Inventory and the customer list are its back office. */
const ownerCompany: Rule = (u) => u.company.isOwner;
/** Inspection-company staff write jobs, inspections and parts; customers and operators read. */
const inspectionCompany: Rule = (u) => u.company.company_type === "inspection_company";
/** Whether a user (the caller, or an account being managed) holds the superuser role. */
export const isSuperuser = (u: { permissions: readonly string[] }) => u.permissions.includes("superuser");
const notDataEntry: Rule = (u) => u.account_type !== "Data-Entry";

/**
 * The company's `settings.salesSideBar`, if it is an object: the Sales drawer's switches
 * (`{"taxes": false}`) and the dashboard's `salesDashboardUsers` and `salesDashboardURL`.
 */
export function salesSideBar(user: PolicyUser): Record<string, unknown> | undefined {
  const bar = user.company.settings?.salesSideBar;
  return bar && typeof bar === "object" && !Array.isArray(bar) ? bar as Record<string, unknown> : undefined;
}

/** Whether the user's id is in `salesSideBar.salesDashboardUsers` (ids as numbers or numeric strings). */
export function isSalesDashboardUser(user: PolicyUser): boolean {
  const users = salesSideBar(user)?.salesDashboardUsers;
  return Array.isArray(users) && users.some((id) => String(id).trim() === String(user.id));
}

const DENIED = "You do not have permission to do that.";
const SALES_STAFF = "Sales & Inventory is for the company's own staff.";

interface Ability {
  rule: Rule;
  /** the 403's sentence */
  refusal: string | ((u: PolicyUser) => string);
  /** where a page needing this ability sends a user without it (the spec's, where it names one) */
  page?: "/signin";
}
const ability = (rule: Rule, refusal: Ability["refusal"] = DENIED, page?: "/signin"): Ability => ({
  rule,
  refusal,
  page,
});
/** Sales abilities refuse other companies' users as outsiders first. */
const salesRefusal = (sentence: string) => (u: PolicyUser) => ownerCompany(u) ? sentence : SALES_STAFF;

/** Every ability, by name. Services, the page guard, menus and islands use these names only. */
export const POLICY = {
  // Administration
  "companies.view": ability(ownerCompany, "Only users of the owner company can manage companies.", "/signin"),
  "companies.edit": ability(grant("user-admin", "superuser")),
  "companies.delete": ability(grant("superuser")),
  "companies.settings": ability(grant("superuser")),
  "users.edit": ability(grant("user-admin")),
  "users.delete": ability(grant("user-admin")),
  "users.forceReset": ability(grant("user-admin")),
  /** a user-admin of the owner company manages every company's users; others their own company's */
  "users.allCompanies": ability(all(ownerCompany, grant("user-admin"))),
  /** granting, removing or touching the superuser role */
  "users.superuser": ability(isSuperuser),
  // Pressure testing
  "pt.write": ability(inspectionCompany, "Only the inspection company can change inspection records."),
  "pt.searchCustomer": ability(inspectionCompany),
  "jobs.create": ability(all(inspectionCompany, notDataEntry)),
  "jobs.edit": ability(grant("job-admin")),
  "inspections.enter": ability(grant("inspector")),
  "inspections.edit": ability(grant("job-admin")),
  /** photos and the signature: the inspector who records the inspection, and job-admins */
  "inspections.media": ability(grant("inspector", "job-admin")),
  "parts.view": ability(inspectionCompany, "The parts catalogue belongs to the inspection company."),
  "parts.edit": ability(grant("part-admin")),
  // Sales & Inventory
  "sales.read": ability(ownerCompany, SALES_STAFF),
  "sales.admin": ability(all(ownerCompany, grant("sales-admin")), salesRefusal(DENIED), "/signin"),
  "sales.approve": ability(
    all(ownerCompany, grant("approval-authority")),
    salesRefusal("Only a user with approval authority can do that."),
  ),
  /** customer and sales-rep searches and Show Invoiced on the ticket lists */
  "sales.searchParties": ability(ownerCompany, SALES_STAFF),
  "sales.dashboard": ability(all(ownerCompany, isSalesDashboardUser)),
} as const satisfies Record<string, Ability>;
export type AbilityName = keyof typeof POLICY;

export function can(user: PolicyUser | undefined, name: AbilityName): boolean {
  return !!user && POLICY[name].rule(user);
}

/** 403 with the ability's sentence (or `message`) unless the user has it. */
export function requireAbility(user: PolicyUser | undefined, name: AbilityName, message?: string): void {
  if (can(user, name)) return;
  throw new AppError("forbidden", message ?? refusalOf(user, name));
}

/** The sentence that tells `user` why they may not do what `name` allows. */
export function refusalOf(user: PolicyUser | undefined, name: AbilityName): string {
  const refusal: Ability["refusal"] = POLICY[name].refusal;
  return typeof refusal === "string" ? refusal : user ? refusal(user) : DENIED;
}

/** Where a page needing `name` sends a signed-in user without it: the spec's target, else the welcome page. */
export const refusedPage = (name: AbilityName): string => POLICY[name].page ?? "/";

/** The answers for several abilities, for an island's `can` prop: `{edit: can(user, "sales.admin")}`. */
export function abilities<K extends string>(
  user: PolicyUser,
  names: Record<K, AbilityName>,
): Record<K, boolean> {
  return Object.fromEntries(
    Object.entries(names).map(([k, n]) => [k, can(user, n as AbilityName)]),
  ) as Record<
    K,
    boolean
  >;
}
