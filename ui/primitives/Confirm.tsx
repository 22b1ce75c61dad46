import type { ReactNode } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "./Dialog.tsx";

/**
 * The spec's delete confirmation: question, 'WARNING: This cannot be undone.', Cancel and Yes. While the
 * answer is sent (`busy`) Yes is disabled and reads `busyLabel` ("Deleting..."), and a status tells screen
 * readers, as FormDialog's saves do. Other confirmations (a transfer) give their `detail`, no `warning` and
 * a primary Yes.
 */
export function Confirm(
  {
    isOpen,
    question,
    detail,
    warning = "WARNING: This cannot be undone.",
    danger = true,
    onCancel,
    onConfirm,
    busy,
    busyLabel = "Deleting...",
  }: {
    isOpen: boolean;
    question: string;
    /** a line under the question (what will be done) */
    detail?: ReactNode;
    /** the line under it; null for none */
    warning?: string | null;
    /** Yes in the danger colour (deletes) or the primary one */
    danger?: boolean;
    onCancel: () => void;
    onConfirm: () => void;
    busy?: boolean;
    /** What Yes reads while the answer is sent. */
    busyLabel?: string;
  },
) {
  return (
    <Dialog title="Please confirm" isOpen={isOpen} onClose={onCancel}>
      <div aria-busy={busy || undefined}>
        <p>{question}</p>
        {detail && <p>{detail}</p>}
        {warning && <p className="warning">{warning}</p>}
        <div className="dialog-actions">
          <span className="dialog-status" role="status">
            {busy ? `${busyLabel.replace(/\.+$/, "")}, please wait...` : ""}
          </span>
          <Button className="btn" onPress={onCancel} autoFocus>Cancel</Button>
          <Button
            className={danger ? "btn btn-danger" : "btn btn-primary"}
            onPress={onConfirm}
            isDisabled={busy}
          >
            {busy ? busyLabel : "Yes"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
