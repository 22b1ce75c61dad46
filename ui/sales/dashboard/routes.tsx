import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { renderShellPage } from "../../render.tsx";
import { salesDashboardURL } from "../../shell/menus.ts";
import { DashboardPage } from "./DashboardPage.tsx";
import { contentSecurityPolicy } from "../../../api/middleware/security_headers.ts";

/**
 * GET /sales/dashboard: the owner company's staff (anyone else back to "/"). A user listed in the
 * company's `salesSideBar.salesDashboardUsers` sees `salesDashboardURL` framed; anyone else a blank
 * page. Its Content-Security-Policy lets it frame the dashboard's origin, and only that (`frame-src`), which
 * the page test checks.
 */
export const dashboardPages = new Hono<AppEnv>()
  .get("/sales/dashboard", (c) => {
    const user = c.get("user")!;
    const url = salesDashboardURL(user);
    if (url) c.header("Content-Security-Policy", contentSecurityPolicy([url.origin]));
    return renderShellPage(c, "Sales Dashboard", <DashboardPage url={url?.href} />);
  });
