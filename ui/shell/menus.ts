import type { CurrentUser } from "../../api/lib/context.ts";
import type { IconName } from "../components/icons.tsx";

export type AppName = "pt" | "sales";

export interface MenuEntry {
  href: string;
  label: string;
  icon: IconName;
  show: (u: CurrentUser) => boolean;
}

const hasRole = (r: string) => (u: CurrentUser) => u.roles.includes(r);
const ownerCompany = (u: CurrentUser) => u.company.isOwner;

/**
 * The side drawer's menus, per app. An entry appears only once its page exists; later features add
 * theirs here.
 */
export const MENUS: Record<AppName, MenuEntry[]> = {
  pt: [
    { href: "/pt/jobs", label: "Jobs", icon: "work", show: () => true },
    { href: "/pt/data", label: "Data", icon: "table", show: () => true },
    {
      href: "/pt/parts",
      label: "Parts",
      icon: "build",
      show: (u) => u.company.company_type === "inspection_company",
    },
    { href: "/admin/companies", label: "Companies", icon: "business", show: ownerCompany },
    { href: "/admin/accounts", label: "Accounts", icon: "people", show: hasRole("user-admin") },
    { href: "/", label: "Apps", icon: "apps", show: () => true },
  ],
  sales: [
    { href: "/sales/tickets", label: "Tickets", icon: "ticket", show: ownerCompany },
    { href: "/sales/quotes", label: "Quotes", icon: "requestQuote", show: ownerCompany },
    { href: "/sales/ready-for-billing", label: "Ready For Billing", icon: "checklist", show: ownerCompany },
    { href: "/sales/approval", label: "Approval", icon: "thumbUp", show: ownerCompany },
    { href: "/sales/invoices", label: "Invoices", icon: "invoice", show: ownerCompany },
    { href: "/sales/items", label: "Items", icon: "inventory", show: ownerCompany },
    {
      href: "/sales/serialized-inventory",
      label: "Serialized Inventory",
      icon: "qrCode",
      show: ownerCompany,
    },
    { href: "/sales/itemized-inventory", label: "Itemized Inventory", icon: "layers", show: ownerCompany },
    { href: "/sales/charge-codes", label: "Charge Codes", icon: "receipt", show: ownerCompany },
    { href: "/sales/inventory-audit", label: "Inventory Audit", icon: "history", show: ownerCompany },
    { href: "/sales/data", label: "Sales Data", icon: "table", show: ownerCompany },
    {
      href: "/sales/dashboard",
      label: "Dashboard",
      icon: "table",
      show: (u) => ownerCompany(u) && isSalesDashboardUser(u),
    },
    { href: "/sales/taxes", label: "Taxes", icon: "percent", show: ownerCompany },
    {
      href: "/sales/inventory-categories",
      label: "Inventory Categories",
      icon: "category",
      show: ownerCompany,
    },
    { href: "/sales/item-categories", label: "Item Categories", icon: "label", show: ownerCompany },
    { href: "/sales/business-units", label: "Business Units", icon: "store", show: ownerCompany },
    { href: "/sales/product-lines", label: "Product Lines", icon: "viewList", show: ownerCompany },
    { href: "/sales/sub-product-lines", label: "Sub Product Lines", icon: "accountTree", show: ownerCompany },
    {
      href: "/sales/templates",
      label: "Templates",
      icon: "description",
      show: (u) => ownerCompany(u) && u.roles.includes("sales-admin"),
    },
    { href: "/admin/companies", label: "Customers", icon: "business", show: ownerCompany },
    { href: "/admin/accounts", label: "Accounts", icon: "people", show: hasRole("user-admin") },
    { href: "/", label: "Apps", icon: "apps", show: () => true },
  ],
};

/**
 * The company's `settings.salesSideBar`, if it is an object: the Sales drawer's switches
 * (`{"taxes": false}`) and the dashboard's `salesDashboardUsers` and `salesDashboardURL`.
 */
export function salesSideBar(user: CurrentUser): Record<string, unknown> | undefined {
  const bar = user.company.settings?.salesSideBar;
  return bar && typeof bar === "object" && !Array.isArray(bar) ? bar as Record<string, unknown> : undefined;
}

/** Whether the user's id is in `salesSideBar.salesDashboardUsers` (ids as numbers or numeric strings). */
export function isSalesDashboardUser(user: CurrentUser): boolean {
  const users = salesSideBar(user)?.salesDashboardUsers;
  return Array.isArray(users) && users.some((id) => String(id).trim() === String(user.id));
}

/**
 * The dashboard this user may see framed: `salesSideBar.salesDashboardURL` (or, failing that, the
 * settings' top-level `salesDashboardURL`), only for a user in `salesDashboardUsers` and only an
 * absolute http(s) address; undefined otherwise (the page stays blank).
 */
export function salesDashboardURL(user: CurrentUser): URL | undefined {
  if (!isSalesDashboardUser(user)) return undefined;
  const raw = salesSideBar(user)?.salesDashboardURL ?? user.company.settings?.salesDashboardURL;
  if (typeof raw !== "string") return undefined;
  try {
    const url = new URL(raw.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The entries a user sees: those their role and company allow, less the Sales entries the company's
 * settings switch off (`settings.salesSideBar`: `{"taxes": false}` hides /sales/taxes).
 */
export function menuFor(app: AppName, user: CurrentUser): MenuEntry[] {
  const flags = salesSideBar(user);
  return MENUS[app].filter((e) => {
    if (!e.show(user)) return false;
    const key = e.href.startsWith("/sales/") ? e.href.slice("/sales/".length) : undefined;
    return !(key && flags && flags[key] === false);
  });
}

export const APP_TITLES: Record<AppName, string> = { pt: "Pressure Testing", sales: "Sales & Inventory" };

/** The app a path belongs to, if any: /pt/... and /sales/... set the remembered app. */
export function appOfPath(path: string): AppName | undefined {
  if (path.startsWith("/pt/") || path === "/pt") return "pt";
  if (path.startsWith("/sales/") || path === "/sales") return "sales";
  return undefined;
}
