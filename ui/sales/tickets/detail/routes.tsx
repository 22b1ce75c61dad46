import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../../api/lib/context.ts";
import { can } from "../../../../lib/policy.ts";
import { getTicket } from "../../../../api/sales/tickets/service.ts";
import { ticketLines } from "../../../../api/sales/lines/service.ts";
import { renderShellPage } from "../../../render.tsx";
import { Island } from "../../../lib/island.tsx";
import { TICKET_LISTS } from "../types.ts";
import { pageColumns } from "../../lines/columns.ts";
import TicketDetail from "./islands/TicketDetail.tsx";
import type { DetailProps } from "./types.ts";
import { checkInStart, postCheckInForm } from "./checkin_route.ts";
import { CHECK_IN_MODE } from "../../lines/checkin_form.ts";

/**
 * The ticket detail screen on each list's path followed by the ticket's id: the owner company's staff
 * (anyone else back to "/"); an unknown ticket is the not-found page. The ticket and its lines are
 * rendered here; the island keeps them fresh after every action.
 */
export const ticketDetailPages = new Hono<AppEnv>();

/** The line search kept in the address, read leniently: a page never fails on its search. */
const lineSearch = (v: string | undefined) => (v ?? "").slice(0, 200);

for (const list of TICKET_LISTS) {
  ticketDetailPages.get(`${list.path}/:id{[0-9]+}`, async (c) => {
    const user = c.get("user")!;
    const ctx = ctxOf(c);
    const id = Number(c.req.param("id"));
    const ticket = await getTicket(ctx, id);
    const { results: lines } = await ticketLines(ctx, { ticket_id: id });
    const settings = (user.company.settings ?? {}) as Record<string, unknown>;
    // `?mode=checkin`: the page opens in check-in mode, its form working before the scripts (decision 056).
    const checkingIn = c.req.query("mode") === CHECK_IN_MODE && !ticket.isQuote &&
      ticket.status !== "QUOTE" &&
      !ticket.isInvoice && ticket.status !== "APP" && lines.length > 0;
    const props: DetailProps = {
      list,
      ticket,
      lines,
      can: { admin: can(user, "sales.admin"), approve: can(user, "sales.approve") },
      columns: pageColumns(settings),
      company: { name: user.company.name, settings },
      ...(checkingIn ? { checkIn: checkInStart(c, list.path, id, lines) } : {}),
      search: lineSearch(c.req.query("search")),
    };
    return renderShellPage(
      c,
      `${list.title}: ${ticket.invoice_number ?? ticket.ticket_number}`,
      <section className="page ticket-detail">
        <Island
          src="ui/sales/tickets/detail/islands/TicketDetail.tsx"
          component={TicketDetail}
          props={props}
        />
      </section>,
    );
  });
  ticketDetailPages.post(`${list.path}/:id{[0-9]+}/check-in`, (c) => postCheckInForm(c, list.path));
}
