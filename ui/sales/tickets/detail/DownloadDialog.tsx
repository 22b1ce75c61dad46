import { useState } from "react";
import { FormDialog } from "../../../components/FormDialog.tsx";
import { Select } from "../../../primitives/Select.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { download } from "../../../lib/api.ts";
import { setLoading, showError } from "../../../lib/events.ts";
import type { DialogProps, TicketDetail } from "./types.ts";

export type DocType = "quote" | "ticket" | "invoice";

/**
 * The documents a ticket may print as: a quote as Quote; otherwise Ticket, and Invoice once it has
 * an invoice number (the server answers 409 for an invoice without one). The first is the default:
 * an approved invoice prints as its invoice.
 */
export function documentChoices(
  ticket: Pick<TicketDetail, "status" | "isQuote" | "invoice_number">,
): { id: DocType; label: string }[] {
  if (ticket.isQuote || ticket.status === "QUOTE") return [{ id: "quote", label: "Quote" }];
  if (!ticket.invoice_number) return [{ id: "ticket", label: "Ticket" }];
  const both: { id: DocType; label: string }[] = [{ id: "ticket", label: "Ticket" }, {
    id: "invoice",
    label: "Invoice",
  }];
  return ticket.status === "APP" ? both.reverse() : both;
}

/** The GET /api/sales/ticketpdf query for this ticket and choice. */
export function pdfQuery(
  ticket: Pick<TicketDetail, "id" | "ticket_number" | "invoice_number">,
  type: DocType,
  includeAttachments: boolean,
) {
  return {
    ticket_id: ticket.id,
    type,
    printInvoice: type === "invoice",
    ticket_number: ticket.ticket_number,
    invoice_number: ticket.invoice_number ?? undefined,
    include_attachments: includeAttachments,
  };
}

/**
 * Downloads the ticket, quote or invoice as a PDF (GET /api/sales/ticketpdf), optionally with the
 * lines' attachments appended, saved under the server's file name; a refusal is shown and the
 * dialog stays open.
 */
export function DownloadDialog(props: DialogProps) {
  const { ticket } = props;
  const choices = documentChoices(ticket);
  const [type, setType] = useState<DocType>(choices[0].id);
  const [attachments, setAttachments] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setLoading(true);
    try {
      await download("/api/sales/ticketpdf", pdfQuery(ticket, type, attachments));
      props.onClose();
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
      setBusy(false);
    }
  };

  return (
    <FormDialog
      title="Download"
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Download"
      canSubmit
      busy={busy}
    >
      {choices.length > 1 && (
        <Select
          label="Document"
          options={choices}
          value={type}
          onChange={(v) => setType(v as DocType)}
        />
      )}
      {choices.length === 1 && <p className="field-note">{choices[0].label} as PDF</p>}
      <div className="checkbox-row">
        <Checkbox isSelected={attachments} onChange={setAttachments}>Include attachments</Checkbox>
      </div>
    </FormDialog>
  );
}
