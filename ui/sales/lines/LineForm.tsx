import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { sendWithProgress } from "../../components/batch_send.ts";
import { ComboBox } from "../../primitives/ComboBox.tsx";
import type { ChosenFile } from "../../primitives/FileField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { hoursBetween } from "../../../api/sales/tickets/rules.ts";
import { PDF_MESSAGE } from "../../../api/pt/inspections/schemas.ts";
import type { AvailabilityFigures } from "../../../api/sales/lines/schemas.ts";
import { AvailabilityDialog } from "./AvailabilityDialog.tsx";
import { attachmentForm, FILE, isPdf } from "./attachment_file.ts";
import {
  blockedReason,
  fieldLabel,
  type FormTicket,
  initialValues,
  lineBody,
  lineIssues,
  type Values,
} from "./line_values.ts";
import { LineAttachment, LineFigures, LineNotes } from "./LineFields.tsx";
import { useLineRow } from "./useLineRow.ts";
import { useTimeZone } from "../../lib/time_zone.tsx";
import { useVersioned } from "../../lib/use_versioned.ts";
import type { DialogProps } from "../tickets/detail/types.ts";
import type { Line } from "./types.ts";

/** The five figures of an availability refusal (the server's 409), if `e` is one. */
function refusalFigures(e: unknown): AvailabilityFigures | undefined {
  if (!(e instanceof ApiError) || e.status !== 409) return undefined;
  return e.body.figures as AvailabilityFigures | undefined;
}

/**
 * The line-item form (width 800): a new line when `line` is null, else that line (editing is
 * sales-admin's). Inventory search (required; serial | item number | description with each row's
 * business unit, available quantity and status; rows that cannot go out on the ticket are shown
 * disabled), the figures (LineFields.tsx), notes, 'Hide when printing', and a PDF attachment (not on
 * quotes) uploaded once the line is saved. A new line takes the server's defaults, and choosing a row
 * fills in its rates (and the ticket's taxes for a taxable item). While Save is disabled a hint says
 * what to fix. A save refused for stock opens the availability dialog and keeps the form as typed.
 */
export function LineForm(props: DialogProps & { line: Line | null }) {
  const { ticket, line, onClose, onDone } = props;
  const t: FormTicket = {
    id: ticket.id,
    isQuote: ticket.status === "QUOTE" || ticket.isQuote,
    minRate: ticket.use_min_rate_logic,
    timeZone: useTimeZone(),
  };
  const logged = (line?.inventory_log.length ?? 0) > 0;

  // The line's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(line, (l): Values => initialValues(l ?? null, t.minRate, t.timeZone), {
    labels: lineLabels(t.minRate),
  });
  const { v, setV } = edit;
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [removeAttachment, setRemoveAttachment] = useState(false);
  const [figures, setFigures] = useState<AvailabilityFigures | null>(null);
  /** A new line saved while its attachment was refused: later saves update it (or resend only). */
  const [savedId, setSavedId] = useState<number | null>(null);
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const set = (k: keyof Values) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
  };
  const row = useLineRow({
    ticket: { id: ticket.id, business_unit_id: ticket.business_unit_id, isQuote: t.isQuote, tax: ticket.tax },
    line,
    minRate: t.minRate,
    onRates: (r) => {
      setV((s) => ({ ...s, price: r.price, minimum_rate: r.minimum_rate ?? s.minimum_rate, ...r.taxes }));
      setServerErrors((e) => ({ ...e, price: "", minimum_rate: "" }));
    },
  });

  const body = lineBody(t, line, row.inv?.id ?? null, v);
  const issues = lineIssues(t, body, v, row.facts);
  if (file && !isPdf(file)) issues[FILE] = PDF_MESSAGE;
  const valid = Object.keys(issues).length === 0;
  const shown = shownFrom(serverErrors, issues);

  const hours = t.isQuote
    ? null
    : hoursBetween(body.start_date && `${body.start_date}:00Z`, body.end_date && `${body.end_date}:00Z`);
  const hasAttachment = !!line?.fileURL && savedId === null;
  const facts = row.facts;
  const available = !t.isQuote && facts && facts.type !== "Charge Code" ? facts.available : null;

  // Changing a saved line is sales-admin's Edit: others only send the refused attachment again.
  const resendOnly = savedId !== null && !props.can.admin;
  const submit = async () => {
    if (!valid) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(
      async () => {
        const id = savedId ?? line?.id;
        const saved = resendOnly ? { id: savedId! } : await api<Line>("/api/sales/sales", {
          method: id ? "PUT" : "POST",
          json: id ? { ...body, id } : body,
          version: id === line?.id ? edit.version : undefined,
        });
        if (!line) setSavedId(saved.id);
        const path = `/api/sales/sales/${saved.id}/attachment`;
        if (file && !t.isQuote) await sendWithProgress(path, attachmentForm(file), () => {});
        else if (removeAttachment && hasAttachment) await api(path, { method: "DELETE" });
        return { message: line ? "Line item updated" : "Line item added" };
      },
      (message) => onDone(message),
      (_byField, e) => {
        const figures = refusalFigures(e);
        if (figures) setFigures(figures);
      },
    );
  };
  edit.onResend(submit);
  const fields = { v, set, touch, shown };
  const blocked = blockedReason(issues, t.minRate);

  return (
    <>
      <FormDialog
        title={line ? "Edit Line Item" : "New Line Item"}
        width={800}
        // A new line already saved (its attachment refused) is on the ticket: refetch on the way out.
        onClose={savedId !== null ? () => onDone() : onClose}
        onSubmit={submit}
        onInvalidSubmit={revealAll}
        canSubmit={valid}
        busy={busy}
        versioned={edit}
      >
        <ComboBox
          label="Inventory"
          selected={row.inv}
          onChange={(o) => {
            row.pick(o);
            touch("inventory_id");
            clear("inventory_id");
            clear("quantity");
          }}
          onBlur={() => touch("inventory_id")}
          load={row.load}
          debounceMs={300}
          error={shown("inventory_id")}
          isRequired
          isDisabled={logged || resendOnly}
        />
        <LineFigures
          {...fields}
          isQuote={t.isQuote}
          minRate={t.minRate}
          hours={hours}
          available={available}
        />
        <LineNotes {...fields} />
        {!t.isQuote && (
          <LineAttachment
            current={hasAttachment ? { url: line!.fileURL!, name: line!.doc || "Attachment" } : null}
            remove={removeAttachment}
            onToggleRemove={() => setRemoveAttachment((r) => !r)}
            file={file}
            onFile={(f) => {
              setFile(f);
              touch(FILE);
              clear(FILE);
            }}
            error={shown(FILE)}
          />
        )}
        {resendOnly && <p className="field-hint">The line is saved; Save sends its attachment again.</p>}
        {blocked && <p className="form-blocked" role="note">{blocked}</p>}
      </FormDialog>
      {figures && (
        <AvailabilityDialog
          figures={figures}
          item={row.inv?.name}
          onClose={() => setFigures(null)}
        />
      )}
    </>
  );
}

/** The form's labels, for the conflict dialog. */
const lineLabels = (minRate: boolean): Record<string, string> => ({
  ...Object.fromEntries(Object.keys(initialValues(null, minRate)).map((k) => [k, fieldLabel(k, minRate)])),
  notes: "Notes",
  hide: "Hide when printing",
});
