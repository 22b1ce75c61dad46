import { useState } from "react";
import { Confirm } from "../../primitives/Confirm.tsx";
import { api } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { LineForm } from "../lines/LineForm.tsx";
import { InventoryLogDialog } from "../lines/InventoryLogDialog.tsx";
import { ReclassDialog } from "../lines/ReclassDialog.tsx";
import { TransferDialog } from "../lines/TransferDialog.tsx";
import { BillBackDialog } from "../lines/BillBackDialog.tsx";
import type { Line } from "../lines/types.ts";
import { RejectionDialog } from "./RejectionDialog.tsx";
import { TicketEditDialog } from "./TicketEditDialog.tsx";
import { InvoiceDialog } from "./InvoiceDialog.tsx";
import { DownloadDialog } from "./DownloadDialog.tsx";
import type { DialogProps } from "./types.ts";

/** Which dialog of the detail screen is open. */
export type Open =
  | { kind: "line"; line: Line | null }
  | { kind: "delete"; line: Line }
  | { kind: "log"; line: Line }
  | { kind: "reclass" }
  | { kind: "reject" }
  | { kind: "ticket"; status: string }
  | { kind: "invoice"; status: string }
  | { kind: "transfer" }
  | { kind: "billBack" }
  | { kind: "download" };

/** The open dialog, if any: the line form, the delete confirmation, and the ticket's and lines' dialogs. */
export function TicketDialogs({ open, dialog }: { open: Open | null; dialog: DialogProps }) {
  const [busy, setBusy] = useState(false);
  if (!open) return null;

  const deleteLine = async (line: Line) => {
    setBusy(true);
    try {
      const r = await api<{ message?: string }>(`/api/sales/sales/${line.id}`, { method: "DELETE" });
      dialog.onDone(r?.message ?? "Line item deleted");
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  switch (open.kind) {
    case "line":
      return <LineForm {...dialog} line={open.line} />;
    case "delete":
      return (
        <Confirm
          isOpen
          question="Are you sure you want to delete this item?"
          busy={busy}
          onCancel={dialog.onClose}
          onConfirm={() => deleteLine(open.line)}
        />
      );
    case "log":
      return <InventoryLogDialog line={open.line} onClose={dialog.onClose} />;
    case "reclass":
      return <ReclassDialog {...dialog} />;
    case "reject":
      return <RejectionDialog {...dialog} />;
    case "ticket":
      return <TicketEditDialog {...dialog} status={open.status} />;
    case "invoice":
      return <InvoiceDialog {...dialog} status={open.status} />;
    case "transfer":
      return <TransferDialog {...dialog} />;
    case "billBack":
      return <BillBackDialog {...dialog} />;
    case "download":
      return <DownloadDialog {...dialog} />;
  }
}
