import { Hono } from "hono";
import type { AppEnv } from "../../../api/lib/context.ts";
import { renderShellPage } from "../../render.tsx";
import { salesDashboardURL } from "../../shell/menus.ts";
import { DashboardPage } from "./DashboardPage.tsx";

/**
 * GET /sales/dashboard: the owner company's staff (anyone else back to "/"). A user listed in the
 * company's `salesSideBar.salesDashboardUsers` sees `salesDashboardURL` framed; anyone else a blank
 * page. The app sends no Content-Security-Policy today; should one be added, it must still let this
 * page frame the dashboard's origin (`frame-src`), which the page test checks.
 */
export const dashboardPages = new Hono<AppEnv>()
  .get("/sales/dashboard", (c) => {
    const user = c.get("user")!;
    const url = salesDashboardURL(user);
    return renderShellPage(c, "Sales Dashboard", <DashboardPage url={url?.href} />);
  });
