import { type ComponentProps, type ReactNode, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import { fieldErrors } from "../lib/api.ts";
import { showError } from "../lib/events.ts";

/**
 * A form dialog's save: `busy` while `run` is under way, then `onSaved` with the answer's message
 * ("Success" when it has none), or on failure the server's field messages in `errors` (through
 * `adjust`, which may add its own, e.g. a conflict under the field it is about) and the error shown.
 */
export function useFormSave() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async <T extends { message?: string } | undefined>(
    run: () => Promise<T>,
    onSaved: (message: string, saved: T) => void,
    adjust?: (byField: Record<string, string>, e: unknown) => void,
  ) => {
    setBusy(true);
    try {
      const saved = await run();
      onSaved(saved?.message ?? "Success", saved);
    } catch (e) {
      const byField = fieldErrors(e);
      adjust?.(byField, e);
      setErrors(byField);
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return { busy, errors, setErrors, save };
}

/**
 * Which fields the user has touched: `shownFrom(server, issues)` gives a field's message, the
 * server's first, else the client check's once the field is touched.
 */
export function useTouched() {
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const touch = (k: string) => setTouched((t) => (t[k] ? t : { ...t, [k]: true }));
  const shownFrom =
    (server: Record<string, string>, issues: Record<string, string | undefined>) => (k: string) =>
      server[k] || (touched[k] ? issues[k] : undefined);
  return { touched, setTouched, touch, shownFrom };
}

/** A modal form: its fields, then Cancel and the submit button (disabled while busy or invalid). */
export function FormDialog(
  { title, width, onClose, onSubmit, submitLabel = "Save", canSubmit, busy, children }: {
    title: string;
    width?: ComponentProps<typeof Dialog>["width"];
    onClose: () => void;
    onSubmit: () => void;
    submitLabel?: string;
    canSubmit: boolean;
    busy: boolean;
    children: ReactNode;
  },
) {
  return (
    <Dialog title={title} isOpen onClose={onClose} width={width}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <div className="dialog-actions">
          <Button className="btn" onPress={onClose}>Cancel</Button>
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !canSubmit}>
            {submitLabel}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
