import type { Context } from "hono";
import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server";
import type { AppEnv } from "../api/lib/context.ts";
import { Document } from "./document.tsx";
import { ErrorPage } from "./pages/ErrorPage.tsx";
import { Layout } from "./shell/Layout.tsx";
import { getCookie } from "hono/cookie";
import { type AppName, appOfPath } from "./shell/menus.ts";
import { timeZoneOf } from "../lib/format.ts";
import { DRAWER_COOKIE } from "./shell/islands/DrawerToggle.tsx";

/** Streams a page: the shell, the document and the page's own content, with its status. */
export async function renderPage(
  c: Context<AppEnv>,
  title: string,
  body: ReactNode,
  status: 200 | 401 | 403 | 404 | 409 | 422 | 429 | 500 = 200,
) {
  const stream = await renderToReadableStream(
    <Document
      title={`${title} - Back Office`}
      assets={c.get("services").assets}
      timeZone={timeZone(c)}
      bodyClass={getCookie(c, DRAWER_COOKIE) === "mini" ? "drawer-mini" : undefined}
    >
      {body}
    </Document>,
    { onError: (e) => console.error(JSON.stringify({ id: c.get("requestId"), render: String(e) })) },
  );
  return c.body(stream, status, { "content-type": "text/html; charset=utf-8" });
}

/** The signed-in user's company's time zone; UTC before sign-in or when the tenant is unknown. */
function timeZone(c: Context<AppEnv>): string {
  try {
    return timeZoneOf(c.get("user")?.company.settings);
  } catch {
    return timeZoneOf(undefined);
  }
}

/** A page inside the shell (top bar, drawer, snackbar) for the signed-in user. */
export function renderShellPage(c: Context<AppEnv>, title: string, body: ReactNode, status?: 200 | 404) {
  return renderPage(
    c,
    title,
    <Layout user={c.get("user")} path={c.req.path} app={activeApp(c)}>{body}</Layout>,
    status,
  );
}

/** The app of the path, else the one last used (cookie), else Pressure Testing. */
function activeApp(c: Context<AppEnv>): AppName {
  const remembered = getCookie(c, "app");
  return appOfPath(c.req.path) ?? (remembered === "sales" ? "sales" : "pt");
}

export function errorPage(c: Context<AppEnv>, status: number, detail: string) {
  const s = ([400, 401, 403, 404, 409, 413, 422, 429, 503, 507].includes(status) ? status : 500) as 404;
  const message = s === 404 ? "Error - page not found" : detail;
  let user;
  try {
    user = c.get("user");
  } catch { /* the tenant could not be resolved */ }
  const body = <ErrorPage message={message} />;
  return renderPage(
    c,
    s === 404 ? "Not found" : "Error",
    user ? <Layout user={user} path={c.req.path} app={activeApp(c)}>{body}</Layout> : body,
    s,
  );
}
