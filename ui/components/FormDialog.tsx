import { type ComponentProps, type ReactNode, useRef, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import { fieldErrors } from "../lib/api.ts";
import { showError } from "../lib/events.ts";
import { lazyDialog } from "../lib/lazy_dialog.tsx";
import { conflictRows, type Values } from "../lib/conflict.ts";
import type { VersionedForm } from "../lib/use_versioned.ts";

/** The conflict dialog of a stale save (decision 038), loaded when first needed. */
const ConflictDialog = lazyDialog(() => import("./ConflictDialog.tsx").then((m) => m.ConflictDialog));

/**
 * A form dialog's save: `busy` while `run` is under way, then `onSaved` with the answer's message
 * ("Success" when it has none), or on failure the server's field messages in `errors` (through
 * `adjust`, which may add its own, e.g. a conflict under the field it is about) and the error shown. A
 * form of an existing record passes its `useVersioned`: a 412 goes to it (the conflict dialog) instead.
 */
export function useFormSave(versioned?: { conflicted(e: unknown): boolean }) {
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
      if (versioned?.conflicted(e)) return;
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
  // A save tried while the form is invalid shows every field's message, touched or not.
  const [all, setAll] = useState(false);
  const touch = (k: string) => setTouched((t) => (t[k] ? t : { ...t, [k]: true }));
  const revealAll = () => setAll(true);
  const shownFrom =
    (server: Record<string, string>, issues: Record<string, string | undefined>) => (k: string) =>
      server[k] || (touched[k] || all ? issues[k] : undefined);
  return { touched, setTouched, touch, shownFrom, revealAll };
}

/**
 * A modal form: its fields, then Cancel and the submit button; with `versioned`, the conflict dialog of a
 * stale save. While saving, the form is busy: the button reads "Saving..." and a status says so to screen
 * readers (the spec's "Loading please wait..."). An invalid form's button is dimmed; with `onInvalidSubmit`
 * it stays focusable (`aria-disabled`), and pressing it (or Enter) shows every field's message, says so in
 * the status and scrolls to the first field that needs attention, instead of a button that does nothing.
 */
export function FormDialog(
  {
    title,
    width,
    onClose,
    onSubmit,
    onInvalidSubmit,
    submitLabel = "Save",
    canSubmit,
    busy,
    versioned,
    children,
  }: {
    title: string;
    width?: ComponentProps<typeof Dialog>["width"];
    onClose: () => void;
    onSubmit: () => void;
    /** reveals every field's message (`useTouched().revealAll`) */
    onInvalidSubmit?: () => void;
    submitLabel?: string;
    canSubmit: boolean;
    busy: boolean;
    versioned?: VersionedForm;
    children: ReactNode;
  },
) {
  const conflict = versioned?.conflict;
  const form = useRef<HTMLFormElement>(null);
  const [told, setTold] = useState(false);
  const invalid = () => {
    onInvalidSubmit?.();
    setTold(true);
    // After the messages render, the first field marked invalid is scrolled into view (not focused: a
    // combobox would open its list over the message).
    requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]')
        ?.scrollIntoView({ block: "center" })
    );
  };
  return (
    <>
      <Dialog title={title} isOpen onClose={onClose} width={width}>
        <Form
          ref={form}
          aria-busy={busy || undefined}
          onSubmit={(e) => {
            e.preventDefault();
            if (busy) return;
            if (!canSubmit && onInvalidSubmit) return invalid();
            onSubmit();
          }}
        >
          {children}
          <div className="dialog-actions">
            <span className="dialog-status" role="status">
              {busy ? "Saving, please wait..." : told && !canSubmit ? "Check the fields marked above." : ""}
            </span>
            <Button className="btn" onPress={onClose}>Cancel</Button>
            {/* With onInvalidSubmit an invalid form's button stays focusable (aria-disabled) and explains. */}
            <button
              type="submit"
              className="btn btn-primary"
              disabled={busy || (!canSubmit && !onInvalidSubmit)}
              aria-disabled={!canSubmit || undefined}
            >
              {busy ? "Saving..." : submitLabel}
            </button>
          </div>
        </Form>
      </Dialog>
      {versioned && conflict && (
        <ConflictDialog
          detail={conflict.detail}
          rows={conflictRows(
            versioned.base as Values,
            versioned.v as Values,
            conflict.theirs as Values,
            versioned.labels,
          )}
          onReload={versioned.reload}
          onApply={versioned.applyMine}
          onClose={versioned.dismiss}
        />
      )}
    </>
  );
}
