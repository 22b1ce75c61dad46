import type { Line } from "../../lines/types.ts";
import type { TicketOut } from "../../../../api/sales/tickets/service.ts";
import type { TicketList } from "../types.ts";
import type { CheckInStart } from "../../lines/checkin_form.ts";
import type { RequirableTicketField } from "../../../../api/sales/tickets/required.ts";

/** GET /api/sales/tickets/{id}: the ticket with its parties, totals, rejections and lines_complete. */
export type TicketDetail = TicketOut;

/** What the signed-in user may do on the detail screen (the server enforces the same). */
export interface DetailCan {
  /** sales-admin: edit and delete lines, delete the ticket */
  admin: boolean;
  /** approval-authority: Approved in the status list, Reject in RFA, re-open invoices */
  approve: boolean;
}

/** The island's props: the list it was opened from, the ticket and its lines as first rendered. */
export interface DetailProps {
  list: TicketList;
  ticket: TicketDetail;
  lines: Line[];
  can: DetailCan;
  /** the line-item column keys per page from company settings (see ../lines/columns.ts), already resolved */
  columns: Record<"ticket" | "quote" | "invoice", { normal: string[]; minRate: string[] }>;
  company: { name: string; settings: Record<string, unknown> };
  /** the page was asked for in check-in mode (`?mode=checkin`): its entries and the last post's outcome */
  checkIn?: CheckInStart;
  /** the line search from the address (`?search=`): the server renders the lines it finds */
  search: string;
}

/**
 * The props every dialog of the detail screen takes. `onDone` closes the dialog, refetches the
 * ticket and its lines and shows `message` (when given) as a snack; `navigate` leaves the screen
 * (the redirects after save of the spec).
 */
export interface DialogProps {
  ticket: TicketDetail;
  lines: Line[];
  can: DetailCan;
  onClose: () => void;
  onDone: (message?: string) => void;
  /** leaves the screen for `path` (a full page load) with `message` shown there as a snack */
  navigate: (path: string, message?: string) => void;
  /** the ticket fields the company's settings make required (decision 055) */
  required?: readonly RequirableTicketField[];
}
