import { Button } from "react-aria-components";
import { Dialog } from "./Dialog.tsx";

/**
 * The spec's delete confirmation: question, 'WARNING: This cannot be undone.', Cancel and Yes. While the
 * answer is sent (`busy`) Yes is disabled and reads `busyLabel` ("Deleting..."), and a status tells screen
 * readers, as FormDialog's saves do.
 */
export function Confirm({ isOpen, question, onCancel, onConfirm, busy, busyLabel = "Deleting..." }: {
  isOpen: boolean;
  question: string;
  onCancel: () => void;
  onConfirm: () => void;
  busy?: boolean;
  /** What Yes reads while the answer is sent. */
  busyLabel?: string;
}) {
  return (
    <Dialog title="Please confirm" isOpen={isOpen} onClose={onCancel}>
      <div aria-busy={busy || undefined}>
        <p>{question}</p>
        <p className="warning">WARNING: This cannot be undone.</p>
        <div className="dialog-actions">
          <span className="dialog-status" role="status">
            {busy ? `${busyLabel.replace(/\.+$/, "")}, please wait...` : ""}
          </span>
          <Button className="btn" onPress={onCancel} autoFocus>Cancel</Button>
          <Button className="btn btn-danger" onPress={onConfirm} isDisabled={busy}>
            {busy ? busyLabel : "Yes"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
