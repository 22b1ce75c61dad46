import { useRef, useState } from "react";
import { api } from "../../../lib/api.ts";
import { setLoading, showError } from "../../../lib/events.ts";
import { moved } from "../../lines/lines.ts";
import type { Line } from "../../lines/types.ts";
import type { TicketDetail as Ticket } from "./types.ts";

/**
 * The ticket and its lines as the screen shows them: `refresh` fetches both again (the newest answer
 * wins), `move` reorders a line at once and saves the order (a failure is only logged, and the
 * server's order comes back with the refetch).
 */
export function useTicketData(first: { ticket: Ticket; lines: Line[] }) {
  const [ticket, setTicket] = useState(first.ticket);
  const [lines, setLines] = useState(first.lines);
  const fetches = useRef(0);

  const refresh = async () => {
    const n = ++fetches.current;
    setLoading(true);
    try {
      const [t, l] = await Promise.all([
        api<Ticket>(`/api/sales/tickets/${ticket.id}`),
        api<{ results: Line[] }>("/api/sales/sales/ticket", {
          query: { ticket_id: ticket.id, paginate: "false" },
        }),
      ]);
      if (n !== fetches.current) return;
      setTicket(t);
      setLines(l.results);
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
    }
  };

  const move = (from: number, to: number) => {
    const next = moved(lines, from, to);
    setLines(next);
    api("/api/sales/sales/reorder", {
      method: "POST",
      json: { ticket_id: ticket.id, items: next.map((l, i) => ({ id: l.id, order: i + 1 })) },
    }).catch((e) => console.error("reorder failed", e)).finally(() => void refresh());
  };

  return { ticket, lines, refresh, move };
}
