import type { SetStateAction } from "react";
import { FormDialog, useFormSave, useTouched } from "../../../components/FormDialog.tsx";
import { Select } from "../../../primitives/Select.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { api, ApiError } from "../../../lib/api.ts";
import { TicketUpdateInput } from "../../../../api/sales/tickets/schemas.ts";
import { BLOCKED_UNTIL_HANDLED } from "../../../../api/sales/tickets/rules.ts";
import { isHandledStatus } from "../../../../api/sales/lines/rules.ts";
import { option, type Parties, partyIds } from "../TicketParties.tsx";
import { TicketFields, ticketIssues } from "../TicketFields.tsx";
import { redirectAfterSave, STATUS_LABELS, type StatusChoice, statusChoices } from "./status.ts";
import type { DialogProps, TicketDetail } from "./types.ts";
import { useVersioned } from "../../../lib/use_versioned.ts";

/** The form's values filled from a ticket: its parties and fields (the conflict dialog compares these). */
const formValues = (ticket: TicketDetail) => ({
  customer: option(ticket.customer),
  rep: option(ticket.sales_rep),
  tax: option(ticket.tax),
  unit: option(ticket.business_unit),
  line: option(ticket.product_line),
  subLine: option(ticket.sub_product_line),
  status: ticket.status as string,
  location: ticket.location ?? "",
  notes: ticket.notes ?? "",
  ticket_date: ticket.ticket_date ?? "",
  use_min_rate_logic: ticket.use_min_rate_logic,
  final_bill: ticket.final_bill,
});
type FormValues = ReturnType<typeof formValues>;

const LABELS: Record<string, string> = {
  customer: "Customer",
  rep: "Sales Rep",
  tax: "Tax",
  unit: "Business Unit",
  line: "Product Line",
  subLine: "Sub Product Line",
  ticket_date: "Ticket Date",
  use_min_rate_logic: "Use Min Rate Logic",
};

const partiesOf = (s: FormValues): Parties => ({
  customer: s.customer,
  rep: s.rep,
  tax: s.tax,
  unit: s.unit,
  line: s.line,
  subLine: s.subLine,
});

/** The status choices, with the preset one kept even if the list would not offer it. */
export function statusOptions(ticket: TicketDetail, can: DialogProps["can"], preset: string) {
  const choices = statusChoices(ticket, can);
  if (choices.some((c) => c.id === preset)) return choices;
  return [...choices, { id: preset, label: STATUS_LABELS[preset as StatusChoice] ?? preset }];
}

/**
 * A refused transition (403, 409) is a sentence about the status: it is shown under the Status
 * field as well as in the snack, and the form keeps everything the user entered.
 */
export const statusRefusal = (byField: Record<string, string>, e: unknown) => {
  if (e instanceof ApiError && (e.status === 403 || e.status === 409)) byField.status ??= e.detail;
};

/**
 * Saves the ticket with PUT /api/sales/tickets at the version the form was read at (a 412 opens the conflict
 * dialog); a refused transition is told at Status (`statusRefusal`); once saved, the screen leaves for the list
 * of the saved status. The edit and the invoice dialogs save so.
 */
export const putTicket = (
  save: ReturnType<typeof useFormSave>["save"],
  body: unknown,
  version: number | undefined,
  status: string,
  navigate: DialogProps["navigate"],
) =>
  save(
    () =>
      api<TicketDetail & { message?: string }>("/api/sales/tickets", { method: "PUT", json: body, version }),
    (message, saved) => navigate(redirectAfterSave(status, saved), message),
    statusRefusal,
  );

/**
 * The ticket form for an existing ticket (or quote), prefilled: Customer and Sales Rep required
 * (the spec's messages), tax, business unit, product line, sub product line, location, notes, ticket
 * date, Use Min Rate Logic, Final Bill and Status (the role-limited choices, preset to `status`).
 * Saves with PUT /api/sales/tickets; a refused transition leaves the dialog open with its values.
 * After saving the screen leaves for the list of the saved status (the new ticket for a clone).
 */
export function TicketEditDialog(props: DialogProps & { status: string }) {
  const { ticket, can } = props;
  // The ticket's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(ticket, (t) => formValues(t!), {
    start: (s) => ({ ...s, status: props.status }),
    labels: LABELS,
  });
  const { v, setV } = edit;
  const parties = partiesOf(v);
  const setParties = (p: SetStateAction<Parties>) =>
    setV((s) => ({ ...s, ...(typeof p === "function" ? p(partiesOf(s)) : p) }));
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    id: ticket.id,
    status: v.status,
    ...partyIds(parties),
    location: v.location,
    notes: v.notes,
    ticket_date: v.ticket_date || null,
    use_min_rate_logic: v.use_min_rate_logic,
    final_bill: v.final_bill,
  };
  const check = TicketUpdateInput.safeParse(body);
  // Request For Approval from Ready To Bill waits for every line to be checked in or sold: said at the
  // Status field before Save, as the server would refuse it (409) after.
  const blocked = v.status === "RFA" && ticket.status === "RFB" &&
    props.lines.some((l) => !isHandledStatus(l.calculated_inventory_status));
  // The fields the company's settings make required (decision 055), as the server checks them.
  const required = props.required ?? [];
  const { issues, ok: valid } = ticketIssues(
    required,
    body,
    check,
    blocked ? { status: BLOCKED_UNTIL_HANDLED } : {},
  );
  const shown = shownFrom(serverErrors, issues);
  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const set = (k: keyof FormValues) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
  };

  const submit = async () => {
    if (!valid) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await putTicket(save, body, edit.version, v.status, props.navigate);
  };

  edit.onResend(submit);
  const isQuote = ticket.isQuote || ticket.status === "QUOTE";
  return (
    <FormDialog
      title={isQuote ? "Edit Quote" : "Edit Ticket"}
      width={800}
      onClose={props.onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
      versioned={edit}
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
        afterDate={
          <Select
            label="Status"
            options={statusOptions(ticket, can, props.status)}
            value={v.status}
            onChange={set("status")}
            error={shown("status") || (blocked ? BLOCKED_UNTIL_HANDLED : undefined)}
          />
        }
        checks={<Checkbox isSelected={v.final_bill} onChange={set("final_bill")}>Final Bill</Checkbox>}
      />
    </FormDialog>
  );
}
