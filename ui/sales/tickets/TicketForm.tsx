import { useEffect, useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { Select } from "../../primitives/Select.tsx";
import type { ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { useToday } from "../../lib/time_zone.tsx";
import { TicketInput } from "../../../api/sales/tickets/schemas.ts";
import { NO_PARTIES, type Parties, partyIds } from "./TicketParties.tsx";
import type { RequirableTicketField } from "../../../api/sales/tickets/required.ts";
import { TicketFields, ticketIssues } from "./TicketFields.tsx";

/**
 * The new ticket (or quote) form, max width 800: Customer and Sales Rep required (the spec's
 * messages), tax, business unit, product line, sub product line (of the chosen line), a template of
 * the chosen unit (fills the lines), location, notes, ticket date (today on the company's clock) and Use Min Rate Logic
 * (on). The company's settings may make more of them required (`required`, decision 055): each says
 * "<Label> is required" at the field, as the server would. Save stays disabled while invalid.
 */
export function TicketForm({ isQuote, required = [], onClose, onSaved }: {
  isQuote: boolean;
  /** the fields `Sales.ticketRequired` makes required */
  required?: readonly RequirableTicketField[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [parties, setParties] = useState<Parties>(NO_PARTIES);
  const unit = parties.unit;
  const [templates, setTemplates] = useState<ComboOption[]>([]);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const ticketDate = useToday();
  const [v, setV] = useState({ location: "", notes: "", ticket_date: ticketDate, use_min_rate_logic: true });
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  // The chosen unit's templates; a failed fetch is only logged (the list stays as it was).
  useEffect(() => {
    setTemplateId(null);
    if (!unit) return setTemplates([]);
    const ac = new AbortController();
    api<{ results: ComboOption[] }>(`/api/sales/templates/business-unit/${unit.id}`, { signal: ac.signal })
      .then((r) => setTemplates(r.results.map((t) => ({ id: t.id, name: t.name }))))
      .catch((e) => {
        if ((e as Error).name !== "AbortError") console.error("template fetch failed", e);
      });
    return () => ac.abort();
  }, [unit]);

  const body = {
    ...partyIds(parties),
    template_id: templateId ? Number(templateId) : null,
    location: v.location,
    notes: v.notes,
    ticket_date: v.ticket_date,
    use_min_rate_logic: v.use_min_rate_logic,
    isQuote,
    ...(isQuote ? { status: "QUOTE" as const } : {}),
  };
  const check = TicketInput.safeParse(body);
  const { issues, ok: valid } = ticketIssues(required, body, check);
  const shown = shownFrom(serverErrors, issues);
  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const set = (k: keyof typeof v) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
  };

  const submit = async () => {
    if (!valid) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(
      () =>
        api<{ message?: string; ticket_number: string }>("/api/sales/tickets", {
          method: "POST",
          json: body,
        }),
      (message, saved) => onSaved(`${message}: ${saved.ticket_number}`),
    );
  };

  return (
    <FormDialog
      title={isQuote ? "New Quote" : "New Ticket"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
    >
      <TicketFields
        parties={parties}
        setParties={setParties}
        values={v}
        set={set}
        touch={touch}
        clear={clear}
        shown={shown}
        required={required}
        afterParties={
          <Select
            label="Template"
            options={templates.map((t) => ({ id: String(t.id), label: t.name }))}
            value={templateId}
            onChange={(id) => {
              setTemplateId(id);
              clear("template_id");
            }}
            error={shown("template_id")}
            isDisabled={!unit || templates.length === 0}
            placeholder={unit ? (templates.length ? "Select..." : "No templates") : "Choose a business unit"}
          />
        }
      />
    </FormDialog>
  );
}
