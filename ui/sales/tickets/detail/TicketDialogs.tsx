import { useState } from "react";
import { api, ConflictError } from "../../../lib/api.ts";
import { showError } from "../../../lib/events.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";
import { Confirm } from "../../../components/CrudDialogs.tsx";
import type { Line } from "../../lines/types.ts";
import type { DialogProps } from "./types.ts";

// Each dialog's code loads when it is first opened, or as the pointer or focus reaches the button that
// opens it (`preloadDialog`): none of it comes with the page (decision 022).
const LineForm = lazyDialog(() => import("../../lines/LineForm.tsx").then((m) => m.LineForm));
const InventoryLogDialog = lazyDialog(() =>
  import("../../lines/InventoryLogDialog.tsx").then((m) => m.InventoryLogDialog)
);
const ReclassDialog = lazyDialog(() => import("../../lines/ReclassDialog.tsx").then((m) => m.ReclassDialog));
const TransferDialog = lazyDialog(() =>
  import("../../lines/TransferDialog.tsx").then((m) => m.TransferDialog)
);
const BillBackDialog = lazyDialog(() =>
  import("../../lines/BillBackDialog.tsx").then((m) => m.BillBackDialog)
);
const RejectionDialog = lazyDialog(() => import("./RejectionDialog.tsx").then((m) => m.RejectionDialog));
const TicketEditDialog = lazyDialog(() => import("./TicketEditDialog.tsx").then((m) => m.TicketEditDialog));
const InvoiceDialog = lazyDialog(() => import("./InvoiceDialog.tsx").then((m) => m.InvoiceDialog));
const DownloadDialog = lazyDialog(() => import("./DownloadDialog.tsx").then((m) => m.DownloadDialog));

const PRELOAD: Record<Open["kind"], () => void> = {
  line: LineForm.preload,
  delete: Confirm.preload,
  log: InventoryLogDialog.preload,
  reclass: ReclassDialog.preload,
  reject: RejectionDialog.preload,
  ticket: TicketEditDialog.preload,
  invoice: InvoiceDialog.preload,
  transfer: TransferDialog.preload,
  billBack: BillBackDialog.preload,
  download: DownloadDialog.preload,
};

/** Starts loading a dialog's code before it is opened (hover or focus of the button that opens it). */
export function preloadDialog(kind: Open["kind"]): () => void {
  return PRELOAD[kind];
}

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
      const r = await api<{ message?: string }>(`/api/sales/sales/${line.id}`, {
        method: "DELETE",
        version: line.version,
      });
      dialog.onDone(r?.message ?? "Line item deleted");
    } catch (e) {
      showError(e);
      // Someone else changed the line (412): the screen shows it as it is now before anything is deleted.
      if (e instanceof ConflictError) dialog.onDone();
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
