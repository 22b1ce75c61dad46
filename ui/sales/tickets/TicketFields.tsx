import type { Dispatch, ReactNode, SetStateAction } from "react";
import { TextField } from "../../primitives/TextField.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { type Checked, issuesOf } from "../../lib/form.ts";
import { missingTicketFields, type RequirableTicketField } from "../../../api/sales/tickets/required.ts";
import { type Parties, PartyFields } from "./TicketParties.tsx";

/** The values of a ticket's own fields, beside its parties. */
export interface TicketFieldValues {
  location: string;
  notes: string;
  ticket_date: string;
  use_min_rate_logic: boolean;
}

/**
 * A ticket form's messages by field: the fields `Sales.ticketRequired` makes required and the body leaves
 * empty (decision 055, as the server checks them), the schema's, then `extra` (a form's own, such as a
 * blocked status). `ok` when there is none.
 */
export function ticketIssues(
  required: readonly RequirableTicketField[],
  body: Partial<Record<RequirableTicketField, unknown>>,
  check: Checked,
  extra: Record<string, string> = {},
) {
  const missing = missingTicketFields(required, body);
  const issues = {
    ...Object.fromEntries(missing.map((e) => [e.path, e.message])),
    ...issuesOf(check),
    ...extra,
  };
  return { issues, ok: check.success && missing.length === 0 && Object.keys(extra).length === 0 };
}

/**
 * The fields every ticket form shows, new or edited, in one order: the parties (Customer and Sales Rep
 * required), `afterParties` (the new form's Template), Location, Ticket Date, `afterDate` (the edit's
 * Status), Notes, then Use Min Rate Logic and `checks` (the edit's Final Bill). The fields `required` names
 * are marked required; each field's message is `shown`'s.
 */
export function TicketFields(
  { parties, setParties, values, set, touch, clear, shown, required, afterParties, afterDate, checks }: {
    parties: Parties;
    setParties: Dispatch<SetStateAction<Parties>>;
    values: TicketFieldValues;
    set: (k: keyof TicketFieldValues) => (value: string | boolean) => void;
    touch: (field: string) => void;
    clear: (field: string) => void;
    shown: (field: string) => string | undefined;
    /** the fields the company's settings make required (decision 055) */
    required: readonly RequirableTicketField[];
    afterParties?: ReactNode;
    afterDate?: ReactNode;
    checks?: ReactNode;
  },
) {
  return (
    <>
      <div className="form-grid">
        <PartyFields
          parties={parties}
          setParties={setParties}
          touch={touch}
          clear={clear}
          shown={shown}
          required={required}
        />
        {afterParties}
        <TextField
          label="Location"
          value={values.location}
          onChange={set("location")}
          onBlur={() => touch("location")}
          error={shown("location")}
          isRequired={required.includes("location")}
        />
        <TextField
          label="Ticket Date"
          type="date"
          value={values.ticket_date}
          onChange={set("ticket_date")}
          error={shown("ticket_date")}
        />
        {afterDate}
      </div>
      <TextField
        label="Notes"
        value={values.notes}
        onChange={set("notes")}
        onBlur={() => touch("notes")}
        multiline
        rows={2}
        error={shown("notes")}
        isRequired={required.includes("notes")}
      />
      <div className="checkbox-row">
        <Checkbox isSelected={values.use_min_rate_logic} onChange={set("use_min_rate_logic")}>
          Use Min Rate Logic
        </Checkbox>
        {checks}
      </div>
    </>
  );
}
