import { z } from "zod";
import { ListQuery } from "../lib/list_schema.ts";
import { MAX_SERIAL } from "../../lib/serial_code.ts";

/** The longest serial number any form stores (inventory and inspections take 200 characters). */
export { MAX_SERIAL };
export const SERIAL_REQUIRED = "Serial number is required";
export const NO_HISTORY = "No history for this serial number.";

/** A serial number as a path or search parameter: trimmed, 1 to 200 characters (controls: 422 before this). */
export const SerialText = z.string().trim().min(1, SERIAL_REQUIRED).max(
  MAX_SERIAL,
  `Serial number must be at most ${MAX_SERIAL} characters`,
);

export const SerialParam = z.object({ serial: SerialText });

/** GET /api/serials/{serial}: the timeline's page (newest first, its one order). */
export const SerialQuery = ListQuery.pick({ page: true, rowsPerPage: true });
export type SerialQuery = z.infer<typeof SerialQuery>;

/** An inventory row holding the serial number. */
export interface SerialUnit {
  id: number;
  item_number: string;
  item_description: string;
  inventory_type: string;
  business_unit: string;
  location: string;
  status: string;
  hidden: boolean;
  quantity: number;
}

interface EventBase {
  /** which record: an inspection's, a ticket line's or an audit row's id */
  id: number;
  /** when it happened, a stored instant (UTC) */
  at: string;
  /** the serial number as the record spells it */
  serial_number: string;
}

/** An inspection of the serial, placed at the moment it was entered (the inspection tables' order). */
export interface InspectionEvent extends EventBase {
  kind: "inspection";
  inspection: {
    /** the inspection's own date, YYYY-MM-DD */
    date: string;
    job: { id: number; job_number: string };
    inspector: string;
    part: string | null;
    batch: string;
    visual_pass: boolean | null;
    ut: (number | null)[];
    pressure: number | null;
    band_color: string | null;
    mpi_result: string | null;
    notes: string;
    /** the stored pressure-test PDF, when it has one */
    pressure_test_pdf: string | null;
    /** the inspection report (test certificate) PDF, with the pressure-test PDF's pages appended */
    report: string;
  };
}

/** A ticket line that carried the serial, placed at its start date (else when it was added). */
export interface TicketEvent extends EventBase {
  kind: "ticket";
  ticket: {
    id: number;
    ticket_number: string;
    invoice_number: string | null;
    status: string;
    isQuote: boolean;
    customer: string;
  };
  line: {
    id: number;
    item_number: string;
    start_date: string | null;
    end_date: string | null;
    quantity: number;
    isSold: boolean;
    added_by: string;
  };
}

/** An inventory audit row of the serial: check-ins, reclasses, transfers, status and quantity changes. */
export interface AuditEvent extends EventBase {
  kind: "audit";
  audit: {
    action: string;
    updated_by: string;
    item_number: string;
    status: string;
    quantity: number;
    quantity_change: number;
    business_unit: string;
    locations: string;
    ticket_number: string;
    customer_name: string;
  };
}

export type SerialEvent = InspectionEvent | TicketEvent | AuditEvent;

/** GET /api/serials/{serial}. */
export interface SerialHistory {
  serial: string;
  units: SerialUnit[];
  events: SerialEvent[];
  total: number;
}
