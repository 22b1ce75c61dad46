import type { ReactNode } from "react";
import { lazyDialog } from "../lib/lazy_dialog.tsx";

/** The delete confirmation, loaded when first asked (or preloaded from the Delete button). */
export const Confirm = lazyDialog(() => import("../primitives/Confirm.tsx").then((m) => m.Confirm));

/** What `CrudDialogs` and `NewButton` need of `useCrudList`. */
export interface RowDialogs<R> {
  hydrated: boolean;
  editing: R | null | undefined;
  setEditing(row: NoInfer<R> | null | undefined): void;
  deleting: R | null;
  setDeleting(row: NoInfer<R> | null): void;
  busy: boolean;
  saved(message: string): void;
  remove(): void;
}

/** How the form dialog is told to close, and that it saved (with the message to show). */
export interface FormDialogProps {
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * A list island's row dialogs: its form while a row (or, for null, a new one) is being edited, and
 * the delete confirmation asking `question` (none: the list's rows are not deleted here). Saving closes the
 * form, shows the message and refetches; deleting closes the confirmation, then shows the answer or the
 * error and refetches. The form is a `lazyDialog` of the island's; the confirmation is loaded on demand too.
 */
export function CrudDialogs<R>({ crud, form, question }: {
  crud: RowDialogs<R>;
  /** The create and edit dialog; absent: the list's rows are not edited here. */
  form?: (row: R | null, dialog: FormDialogProps) => ReactNode;
  question?: string;
}) {
  const { editing, setEditing, deleting, setDeleting, busy, saved, remove } = crud;
  return (
    <>
      {form && editing !== undefined &&
        form(editing, { onClose: () => setEditing(undefined), onSaved: saved })}
      {question !== undefined && deleting !== null && (
        <Confirm
          isOpen
          question={question}
          onCancel={() => setDeleting(null)}
          onConfirm={remove}
          busy={busy}
        />
      )}
    </>
  );
}
