import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../api/lib/context.ts";
import { serialHistory } from "../../api/serials/service.ts";
import { SerialQuery, SerialText } from "../../api/serials/schemas.ts";
import { textProblem } from "../../api/lib/validate.ts";
import { AppError } from "../../lib/errors.ts";
import { renderShellPage } from "../render.tsx";
import { lenientQuery } from "../lib/list_page.tsx";
import { serialHref } from "../components/SerialLink.tsx";
import { SerialPage, SerialSearch } from "./SerialPage.tsx";

/** The page's sizes: the API's default (25) unless the URL asks for one of these. */
const SIZES = [10, 25, 50, 100];

/** Why a serial number from the URL cannot be looked up, if it cannot (the API's messages). */
function serialProblem(serial: string): string | undefined {
  const parsed = SerialText.safeParse(serial);
  return textProblem(serial) ?? (parsed.success ? undefined : parsed.error.issues[0].message);
}

/**
 * GET /serials: a search box for a serial number (`?serial=X` goes to its page). GET /serials/{serial}:
 * its history, for every signed-in user (what each may see is the service's business). A serial with
 * nothing the user may see is "No history for serial X", answered 404 as the API answers it.
 */
export const serialsPages = new Hono<AppEnv>()
  .get("/serials", (c) => {
    const serial = c.req.query("serial")?.trim();
    if (serial) return c.redirect(serialHref(serial), 302);
    return renderShellPage(
      c,
      "Serial History",
      <section className="page serial-page">
        <div className="page-head">
          <h1>Serial History</h1>
        </div>
        <div className="toolbar">
          <SerialSearch autoFocus />
        </div>
        <p className="serial-empty">
          Enter a serial number to see its inspections, tickets and inventory changes.
        </p>
      </section>,
    );
  })
  .get("/serials/:serial", async (c) => {
    const serial = c.req.param("serial");
    const q = lenientQuery(SerialQuery, new URL(c.req.url).searchParams);
    const query = {
      page: q.page === -1 ? 1 : q.page,
      rowsPerPage: SIZES.includes(q.rowsPerPage) ? q.rowsPerPage : 25,
    };
    const title = `Serial ${serial}`;
    const problem = serialProblem(serial);
    if (problem) {
      return renderShellPage(c, title, <SerialPage serial={serial} query={query} message={problem} />, 404);
    }
    try {
      const history = await serialHistory(ctxOf(c), serial.trim(), query);
      return renderShellPage(c, title, <SerialPage serial={serial} query={query} history={history} />);
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== "not_found") throw e;
      const message = `No history for serial ${serial}`;
      return renderShellPage(c, title, <SerialPage serial={serial} query={query} message={message} />, 404);
    }
  });
