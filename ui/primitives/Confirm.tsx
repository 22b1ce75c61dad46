import { Button } from "react-aria-components";
import { Dialog } from "./Dialog.tsx";

/** The spec's delete confirmation: question, 'WARNING: This cannot be undone.', Cancel and Yes. */
export function Confirm({ isOpen, question, onCancel, onConfirm, busy }: {
  isOpen: boolean;
  question: string;
  onCancel: () => void;
  onConfirm: () => void;
  busy?: boolean;
}) {
  return (
    <Dialog title="Please confirm" isOpen={isOpen} onClose={onCancel}>
      <p>{question}</p>
      <p className="warning">WARNING: This cannot be undone.</p>
      <div className="dialog-actions">
        <Button className="btn" onPress={onCancel} autoFocus>Cancel</Button>
        <Button className="btn btn-danger" onPress={onConfirm} isDisabled={busy}>Yes</Button>
      </div>
    </Dialog>
  );
}
