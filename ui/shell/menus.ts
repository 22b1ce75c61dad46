import type { CurrentUser } from "../../api/lib/context.ts";
import type { IconName } from "../components/icons.tsx";
import { type AbilityName, can, isSalesDashboardUser, salesSideBar } from "../../lib/policy.ts";

export type AppName = "pt" | "sales";

export interface MenuEntry {
  href: string;
  label: string;
  icon: IconName;
  /** the policy's ability the entry's page needs; none: everyone signed in */
  ability?: AbilityName;
}

/**
 * The side drawer's menus, per app. An entry appears only once its page exists; later features add
 * theirs here. Each shows for the users the page guard lets in (the same ability).
 */
export const MENUS: Record<AppName, MenuEntry[]> = {
  pt: [
    { href: "/pt/jobs", label: "Jobs", icon: "work" },
    { href: "/pt/data", label: "Data", icon: "table" },
    { href: "/serials", label: "Serial History", icon: "history" },
    { href: "/pt/parts", label: "Parts", icon: "build", ability: "parts.view" },
    { href: "/admin/companies", label: "Companies", icon: "business", ability: "companies.view" },
    { href: "/admin/accounts", label: "Accounts", icon: "people", ability: "users.edit" },
    { href: "/", label: "Apps", icon: "apps" },
  ],
  sales: [
    { href: "/sales/tickets", label: "Tickets", icon: "ticket", ability: "sales.read" },
    { href: "/sales/quotes", label: "Quotes", icon: "requestQuote", ability: "sales.read" },
    {
      href: "/sales/ready-for-billing",
      label: "Ready For Billing",
      icon: "checklist",
      ability: "sales.read",
    },
    { href: "/sales/approval", label: "Approval", icon: "thumbUp", ability: "sales.read" },
    { href: "/sales/invoices", label: "Invoices", icon: "invoice", ability: "sales.read" },
    { href: "/sales/items", label: "Items", icon: "inventory", ability: "sales.read" },
    {
      href: "/sales/serialized-inventory",
      label: "Serialized Inventory",
      icon: "qrCode",
      ability: "sales.read",
    },
    { href: "/sales/itemized-inventory", label: "Itemized Inventory", icon: "layers", ability: "sales.read" },
    { href: "/sales/charge-codes", label: "Charge Codes", icon: "receipt", ability: "sales.read" },
    { href: "/sales/availability", label: "Availability", icon: "event", ability: "sales.read" },
    { href: "/sales/inventory-audit", label: "Inventory Audit", icon: "history", ability: "sales.read" },
    { href: "/serials", label: "Serial History", icon: "history", ability: "sales.read" },
    { href: "/sales/data", label: "Sales Data", icon: "table", ability: "sales.read" },
    { href: "/sales/dashboard", label: "Dashboard", icon: "table", ability: "sales.dashboard" },
    { href: "/sales/taxes", label: "Taxes", icon: "percent", ability: "sales.read" },
    {
      href: "/sales/inventory-categories",
      label: "Inventory Categories",
      icon: "category",
      ability: "sales.read",
    },
    { href: "/sales/item-categories", label: "Item Categories", icon: "label", ability: "sales.read" },
    { href: "/sales/business-units", label: "Business Units", icon: "store", ability: "sales.read" },
    { href: "/sales/product-lines", label: "Product Lines", icon: "viewList", ability: "sales.read" },
    {
      href: "/sales/sub-product-lines",
      label: "Sub Product Lines",
      icon: "accountTree",
      ability: "sales.read",
    },
    { href: "/sales/templates", label: "Templates", icon: "description", ability: "sales.admin" },
    { href: "/admin/companies", label: "Customers", icon: "business", ability: "companies.view" },
    { href: "/admin/accounts", label: "Accounts", icon: "people", ability: "users.edit" },
    { href: "/", label: "Apps", icon: "apps" },
  ],
};

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

export const APP_TITLES: Record<AppName, string> = { pt: "Pressure Testing", sales: "Sales & Inventory" };

export interface AppChoice {
  app: AppName;
  title: string;
  /** the app's first page */
  href: string;
  icon: IconName;
  /** why this user cannot open it, when they cannot */
  refusal?: string;
}

/**
 * The apps, as the welcome page and the drawer offer them: Pressure Testing for everyone signed in;
 * Sales & Inventory once the company's settings list it (`apps: ["sales"]`), for the owner company's staff.
 */
export function appChoices(user: CurrentUser): AppChoice[] {
  const apps = user.company.settings?.apps;
  const listed = Array.isArray(apps) && apps.includes("sales");
  return [
    { app: "pt", title: APP_TITLES.pt, href: "/pt/jobs", icon: "work" },
    {
      app: "sales",
      title: APP_TITLES.sales,
      href: "/sales/tickets",
      icon: "ticket",
      refusal: !listed
        ? "Not enabled for your company."
        : !can(user, "sales.read")
        ? "Sales & Inventory is for the company's own staff."
        : undefined,
    },
  ];
}

/**
 * The entries a user sees: those their role and company allow, less the Sales entries the company's
 * settings switch off (`settings.salesSideBar`: `{"taxes": false}` hides /sales/taxes), and a way to
 * every other app they may use (before Apps), so no app is a dead end.
 */
export function menuFor(app: AppName, user: CurrentUser): MenuEntry[] {
  const flags = salesSideBar(user);
  const own = MENUS[app].filter((e) => {
    if (e.ability && !can(user, e.ability)) return false;
    const key = e.href.startsWith("/sales/") ? e.href.slice("/sales/".length) : undefined;
    return !(key && flags && flags[key] === false);
  });
  const others: MenuEntry[] = appChoices(user).filter((a) => a.app !== app && !a.refusal)
    .map((a) => ({ href: a.href, label: a.title, icon: a.icon }));
  const apps = own.findIndex((e) => e.href === "/");
  return [...own.slice(0, apps), ...others, ...own.slice(apps)];
}

/** The app a path belongs to, if any: /pt/... and /sales/... set the remembered app. */
export function appOfPath(path: string): AppName | undefined {
  if (path.startsWith("/pt/") || path === "/pt") return "pt";
  if (path.startsWith("/sales/") || path === "/sales") return "sales";
  return undefined;
}
