import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../api/lib/context.ts";
import { AppError } from "../lib/errors.ts";
import { signIn, signOut } from "../api/auth/routes.ts";
import { renderPage, renderShellPage } from "./render.tsx";
import { SignIn } from "./pages/SignIn.tsx";
import { Welcome } from "./pages/Welcome.tsx";
import { appOfPath } from "./shell/menus.ts";
import { pageGuard, refusedNotice } from "./lib/page_guard.ts";
import { companiesPages } from "./admin/companies/routes.tsx";
import { usersPages } from "./admin/users/routes.tsx";
import { partsPages } from "./pt/parts/routes.tsx";
import { jobsPages } from "./pt/jobs/routes.tsx";
import { inspectionsPages } from "./pt/inspections/routes.tsx";
import { itemsPages } from "./sales/items/routes.tsx";
import { inventoryPages } from "./sales/inventory/routes.tsx";
import { taxesPages } from "./sales/taxes/routes.tsx";
import { categoriesPages } from "./sales/categories/routes.tsx";
import { subCategoriesPages } from "./sales/sub_categories/routes.tsx";
import { auditPages } from "./sales/audit/routes.tsx";
import { availabilityPages } from "./sales/availability/routes.tsx";
import { salesDataPages } from "./sales/data/routes.tsx";
import { templatesPages } from "./sales/templates/routes.tsx";
import { ticketListPages } from "./sales/tickets/routes.tsx";
import { dashboardPages } from "./sales/dashboard/routes.tsx";
import { ticketDetailPages } from "./sales/tickets/detail/routes.tsx";
import { serialsPages } from "./serials/routes.tsx";

const SAME = "http://same.invalid";

/**
 * Only a path of this site: `next=//evil.example`, `/\tab/evil.example` (browsers drop tabs and newlines, and
 * read `\` as `/`) or a scheme must not send anyone away; anything else is the start page. The answer is the
 * path as the URL parser writes it (percent-encoded), so it is always a valid `Location` header value.
 */
export function safeNext(next: string | undefined): string {
  // deno-lint-ignore no-control-regex
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(next)) {
    return "/";
  }
  let url: URL;
  try {
    url = new URL(next, SAME);
  } catch {
    return "/";
  }
  if (url.origin !== SAME || url.pathname.startsWith("//")) return "/";
  return url.pathname + url.search + url.hash;
}

/** Every page but /signin needs a session: signed-out visits go to sign in, remembering the path. */
const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.path === "/signin" || c.req.path === "/signout") return next();
  if (!c.get("user")) {
    const url = new URL(c.req.url);
    return c.redirect(`/signin?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
  }
  // The last active app is remembered in the browser (a cookie, so menus render on the server).
  const app = appOfPath(c.req.path);
  if (app && getCookie(c, "app") !== app) {
    setCookie(c, "app", app, { path: "/", sameSite: "Lax", maxAge: 31536000 });
  }
  await next();
});

export const pageRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .use(pageGuard)
  .get("/signin", (c) => {
    const next = safeNext(c.req.query("next"));
    if (c.get("user")) return c.redirect(next, 302);
    return renderPage(c, "Sign In", <SignIn next={next} />);
  })
  .post("/signin", async (c) => {
    const form = await c.req.parseBody();
    const email = String(form.email ?? "");
    const next = safeNext(String(form.next ?? "/"));
    try {
      await signIn(c, email, String(form.password ?? ""));
      return c.redirect(next, 303);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return renderPage(
        c,
        "Sign In",
        <SignIn next={next} email={email} error={e.message} />,
        e.status as 401,
      );
    }
  })
  .post("/signout", async (c) => {
    await signOut(c);
    return c.redirect("/signin", 303);
  })
  .get("/", (c) => welcome(c))
  .get("/app", (c) => welcome(c))
  .route("/", companiesPages)
  .route("/", usersPages)
  .route("/", partsPages)
  .route("/", jobsPages)
  .route("/", inspectionsPages)
  .route("/", itemsPages)
  .route("/", inventoryPages)
  .route("/", taxesPages)
  .route("/", categoriesPages)
  .route("/", subCategoriesPages)
  .route("/", auditPages)
  .route("/", availabilityPages)
  .route("/", salesDataPages)
  .route("/", templatesPages)
  .route("/", ticketListPages)
  .route("/", ticketDetailPages)
  .route("/", dashboardPages)
  .route("/", serialsPages);

/** The welcome page, saying why when the page guard sent the user here from a page they may not open. */
function welcome(c: Context<AppEnv>) {
  const user = c.get("user")!;
  return renderShellPage(
    c,
    "Welcome",
    <Welcome user={user} notice={refusedNotice(user, c.req.query("refused"))} />,
  );
}
