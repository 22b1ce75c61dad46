import { useEffect, useRef, useState } from "react";
import { Button, FieldError, Input, Label, TextField as AriaTextField } from "react-aria-components";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { sendWithProgress } from "../../components/batch_send.ts";
import { TextField } from "../../primitives/TextField.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { type ChosenFile, FileField } from "../../primitives/FileField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { formatNumber } from "../../../lib/format.ts";
import { maxQuantity } from "../../../db/schema/enums.ts";
import { hoursBetween } from "../../../api/sales/tickets/rules.ts";
import { PDF_MESSAGE } from "../../../api/pt/inspections/schemas.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import type { InventoryList } from "../../../api/sales/inventory/schemas.ts";
import {
  type AvailabilityFigures,
  END_BEFORE_START,
  LineInput,
  maxMessage,
  REQUIRED,
  WHOLE_MESSAGE,
} from "../../../api/sales/lines/schemas.ts";
import { newLineRates } from "../../../api/sales/lines/defaults.ts";
import { nowUtcMinute } from "./lines.ts";
import { AvailabilityDialog } from "./AvailabilityDialog.tsx";
import type { DialogProps } from "../ticket/types.ts";
import type { Line } from "./types.ts";

const FILE = "file";

/** The five figures of an availability refusal (the server's 409), if `e` is one. */
function refusalFigures(e: unknown): AvailabilityFigures | undefined {
  if (!(e instanceof ApiError) || e.status !== 409) return undefined;
  return e.body.figures as AvailabilityFigures | undefined;
}

/** A chosen PDF's bytes (FileField reads it as a data URL). */
function bytesOf(file: ChosenFile, chars?: number): Uint8Array {
  const b64 = file.url.slice(
    file.url.indexOf(",") + 1,
    chars ? file.url.indexOf(",") + 1 + chars : undefined,
  );
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The server checks the same: the PDF signature (`%PDF-`) at the start. */
function isPdf(file: ChosenFile): boolean {
  try {
    return new TextDecoder().decode(bytesOf(file, 8)).startsWith("%PDF-");
  } catch {
    return false;
  }
}

/** The attachment upload: multipart with a `file` part. */
function attachmentForm(file: ChosenFile): FormData {
  const form = new FormData();
  form.set(FILE, new Blob([bytesOf(file) as BlobPart], { type: "application/pdf" }), file.name);
  return form;
}

/** A picker option: serial | item number | item description. */
const optionOf = (r: {
  id: number;
  serial_number: string;
  item: { item_number: string; item_description: string };
}): ComboOption => ({
  id: r.id,
  name: [r.serial_number, r.item.item_number, r.item.item_description].filter((s) => s?.trim()).join(" | "),
});

/** What the picker searches for: the text after the last '| ' (a chosen option's description). */
export function pickerSearch(text: string): string {
  const at = text.lastIndexOf("| ");
  return (at === -1 ? text : text.slice(at + 2)).trim();
}

const str = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));
/** A stored instant (YYYY-MM-DDTHH:mm:ssZ) as the datetime-local value, in UTC like the table shows. */
const minute = (s: string | null | undefined) => (s ? s.slice(0, 16) : "");
/** A typed number: null when blank, the number when it is one, else the text (the server says why). */
const numberOf = (s: string): number | string | null => {
  const t = s.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

/** A datetime-local input, labelled, with its message. */
function DateTimeField({ label, value, onChange, onBlur, error, isRequired }: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  onBlur?: () => void;
  error?: string;
  isRequired?: boolean;
}) {
  return (
    <AriaTextField
      className="field"
      type="datetime-local"
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      isInvalid={!!error}
      isRequired={isRequired}
      validationBehavior="aria"
    >
      <Label>{label}</Label>
      <Input />
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}

interface Values {
  start_date: string;
  end_date: string;
  quantity: string;
  price: string;
  minimum_rate: string;
  duration: string;
  discount: string;
  markup: string;
  state_tax: string;
  county_tax: string;
  city_tax: string;
  notes: string;
  hide: boolean;
}

/** The picked row's facts the form needs: its type (quantity limits) and what is available. */
interface RowFacts {
  type: string;
  available: number | null;
}

/**
 * The line-item form (width 800): a new line when `line` is null, else that line. Inventory search
 * (required; serial | item number | description, rows without a serial number left out), start and
 * end (UTC, YYYY-MM-DDTHH:mm; not on quotes), hours from them, quantity (max 1 for Serialized, whole
 * unless Charge Code), price, or min rate and additional-day rate with additional days when the
 * ticket uses min-rate logic, discount, markup and taxes, notes, 'Hide when printing', and a PDF
 * attachment (not on quotes) uploaded once the line is saved. A new line takes the server's
 * defaults, and choosing a row fills in its rates (and the ticket's taxes for a taxable item). A save
 * refused for stock opens the availability dialog and keeps the form as typed.
 */
export function LineForm(props: DialogProps & { line: Line | null }) {
  const { ticket, line, onClose, onDone } = props;
  const isQuote = ticket.status === "QUOTE" || ticket.isQuote;
  const minRate = ticket.use_min_rate_logic;
  const logged = (line?.inventory_log.length ?? 0) > 0;

  const [inv, setInv] = useState<ComboOption | null>(line ? optionOf(line.sales_inventory) : null);
  const [facts, setFacts] = useState<RowFacts | null>(
    line ? { type: line.sales_inventory.item.inventory_type, available: null } : null,
  );
  const [v, setV] = useState<Values>(() => ({
    start_date: line ? minute(line.start_date) : nowUtcMinute(),
    end_date: minute(line?.end_date),
    quantity: line ? str(line.quantity) : "1",
    price: str(line?.price),
    minimum_rate: str(line?.minimum_rate),
    duration: line ? str(line.duration) : minRate ? "0" : "1",
    discount: line ? str(line.discount) : "0",
    markup: str(line?.markup),
    state_tax: str(line?.state_tax),
    county_tax: str(line?.county_tax),
    city_tax: str(line?.city_tax),
    notes: line?.notes ?? "",
    hide: !!line?.custom?.hide,
  }));
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [removeAttachment, setRemoveAttachment] = useState(false);
  const [figures, setFigures] = useState<AvailabilityFigures | null>(null);
  /** A new line saved while its attachment was refused: later saves update it. */
  const [savedId, setSavedId] = useState<number | null>(null);
  const rows = useRef(new Map<number, InventoryRowOut>());
  const picking = useRef<number | null>(null);
  const { touch, setTouched, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  // An existing line's row: what is available now (the picker's figure).
  useEffect(() => {
    if (!line || isQuote) return;
    const ac = new AbortController();
    api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: { ids: String(line.inventory_id) },
      signal: ac.signal,
    }).then((r) => {
      const row = r.results[0];
      if (row) {
        setFacts((f) =>
          f && picking.current === null
            ? { type: row.item.inventory_type, available: row.quantity_available }
            : f
        );
      }
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") console.error("inventory lookup failed", e);
    });
    return () => ac.abort();
  }, [line, isQuote]);

  const load = (text: string, signal: AbortSignal) =>
    api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: { search_multi: pickerSearch(text), ticket_id: line ? undefined : ticket.id },
      signal,
    }).then((r) => {
      const found = r.results.filter((row) => row.serial_number.trim() !== "");
      for (const row of found) rows.current.set(row.id, row);
      return found.map(optionOf);
    });

  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const set = (k: keyof Values) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
  };

  /** A new line takes the chosen row's rates (as the server would) and the ticket's taxes if taxable. */
  const prefill = async (row: InventoryRowOut) => {
    try {
      const found = await api<InventoryList>("/api/sales/inventory", {
        query: {
          search_serial_number: row.serial_number,
          search_item_number: row.item.item_number,
          include_hidden: true,
          rowsPerPage: 100,
        },
      });
      const r = found.results.find((x) => x.id === row.id);
      if (!r || picking.current !== row.id) return;
      const tax = r.item.isTaxable ? ticket.tax : null;
      const rates = newLineRates({ ...r, rate: r.item.rate }, minRate);
      setV((s) => ({
        ...s,
        price: str(rates.price),
        minimum_rate: minRate ? str(rates.minimum_rate) : s.minimum_rate,
        ...(tax
          ? { state_tax: str(tax.state_rate), county_tax: str(tax.county_rate), city_tax: str(tax.city_rate) }
          : {}),
      }));
      setServerErrors((e) => ({ ...e, price: "", minimum_rate: "" }));
    } catch (e) {
      console.error("rate lookup failed", e);
    }
  };

  const pickRow = (o: ComboOption | null) => {
    setInv(o);
    touch("inventory_id");
    clear("inventory_id");
    clear("quantity");
    const row = o ? rows.current.get(o.id) : undefined;
    picking.current = o?.id ?? null;
    if (row) setFacts({ type: row.item.inventory_type, available: row.quantity_available });
    else if (!o) setFacts(null);
    if (row && !line) prefill(row);
  };

  const body = {
    ticket_id: ticket.id,
    inventory_id: inv?.id ?? null,
    ...(isQuote ? {} : { start_date: v.start_date || null, end_date: v.end_date || null }),
    quantity: numberOf(v.quantity),
    price: numberOf(v.price),
    ...(minRate ? { minimum_rate: numberOf(v.minimum_rate) } : {}),
    duration: numberOf(v.duration),
    discount: numberOf(v.discount),
    markup: numberOf(v.markup),
    state_tax: numberOf(v.state_tax),
    county_tax: numberOf(v.county_tax),
    city_tax: numberOf(v.city_tax),
    notes: v.notes,
    custom: { ...(line?.custom ?? {}), hide: v.hide },
  };

  // The server's checks, with its messages: the schema's, then those that need the item type.
  const issues: Record<string, string> = {};
  const check = LineInput.safeParse(body);
  if (!check.success) { for (const i of check.error.issues) issues[i.path.join(".")] ??= i.message; }
  if (!inv) issues.inventory_id ??= REQUIRED;
  if (body.quantity === null) issues.quantity ??= REQUIRED;
  else if (typeof body.quantity === "number" && facts) {
    if (facts.type !== "Charge Code" && !Number.isInteger(body.quantity)) issues.quantity ??= WHOLE_MESSAGE;
    else if (body.quantity > maxQuantity(facts.type)) issues.quantity ??= maxMessage(maxQuantity(facts.type));
  }
  if (!isQuote && !v.start_date) issues.start_date ??= REQUIRED;
  if (!isQuote && v.start_date && v.end_date && v.end_date < v.start_date) {
    issues.end_date ??= END_BEFORE_START;
  }
  if (body.price === null) issues.price ??= REQUIRED;
  if (minRate && body.minimum_rate === null) issues.minimum_rate ??= REQUIRED;
  if (file && !isPdf(file)) issues[FILE] = PDF_MESSAGE;
  const valid = Object.keys(issues).length === 0;
  const shown = shownFrom(serverErrors, issues);

  const hours = isQuote
    ? null
    : hoursBetween(v.start_date && `${v.start_date}:00Z`, v.end_date && `${v.end_date}:00Z`);
  const hasAttachment = !!line?.fileURL && savedId === null;
  const showAvailable = !isQuote && !!facts && facts.type !== "Charge Code" && facts.available !== null;

  const submit = async () => {
    if (!valid) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(
      async () => {
        const id = savedId ?? line?.id;
        const saved = await api<Line>("/api/sales/sales", {
          method: id ? "PUT" : "POST",
          json: id ? { ...body, id } : body,
        });
        if (!line) setSavedId(saved.id);
        const path = `/api/sales/sales/${saved.id}/attachment`;
        if (file && !isQuote) await sendWithProgress(path, attachmentForm(file), () => {});
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

  const price = (
    <TextField
      label={minRate ? "Addl. Day Rate" : "Price"}
      value={v.price}
      onChange={set("price")}
      onBlur={() => touch("price")}
      error={shown("price")}
      isRequired
    />
  );

  return (
    <>
      <FormDialog
        title={line ? "Edit Line Item" : "New Line Item"}
        width={800}
        // A new line already saved (its attachment refused) is on the ticket: refetch on the way out.
        onClose={savedId !== null ? () => onDone() : onClose}
        onSubmit={submit}
        canSubmit={valid}
        busy={busy}
      >
        <ComboBox
          label="Inventory"
          selected={inv}
          onChange={pickRow}
          onBlur={() => touch("inventory_id")}
          load={load}
          debounceMs={300}
          error={shown("inventory_id")}
          isRequired
          isDisabled={logged}
        />
        <div className="form-grid">
          {!isQuote && (
            <>
              <DateTimeField
                label="Start Date"
                value={v.start_date}
                onChange={set("start_date")}
                onBlur={() => touch("start_date")}
                error={shown("start_date")}
                isRequired
              />
              <DateTimeField
                label="End Date"
                value={v.end_date}
                onChange={set("end_date")}
                onBlur={() => touch("end_date")}
                error={shown("end_date")}
              />
              <TextField
                label="Hours"
                value={hours === null ? "" : String(hours)}
                onChange={() => {}}
                isReadOnly
              />
            </>
          )}
          <TextField
            label="Quantity"
            type="number"
            value={v.quantity}
            onChange={set("quantity")}
            onBlur={() => touch("quantity")}
            error={shown("quantity")}
            isRequired
          />
          {showAvailable && (
            <TextField
              label="Available Quantity"
              value={formatNumber(facts!.available)}
              onChange={() => {}}
              isReadOnly
            />
          )}
          {minRate && (
            <TextField
              label="Min Rate"
              value={v.minimum_rate}
              onChange={set("minimum_rate")}
              onBlur={() => touch("minimum_rate")}
              error={shown("minimum_rate")}
              isRequired
            />
          )}
          {price}
          <TextField
            label={minRate ? "Addl. Days" : "Duration"}
            value={v.duration}
            onChange={set("duration")}
            onBlur={() => touch("duration")}
            error={shown("duration")}
          />
          {(["discount", "markup", "state_tax", "county_tax", "city_tax"] as const).map((k) => (
            <TextField
              key={k}
              label={PERCENT_LABELS[k]}
              value={v[k]}
              onChange={set(k)}
              onBlur={() => touch(k)}
              error={shown(k)}
            />
          ))}
        </div>
        <TextField
          label="Notes"
          value={v.notes}
          onChange={set("notes")}
          multiline
          rows={2}
          error={shown("notes")}
        />
        <div className="checkbox-row">
          <Checkbox isSelected={v.hide} onChange={set("hide")}>Hide when printing</Checkbox>
        </div>
        {!isQuote && hasAttachment && (
          <div className="field">
            <span>Current attachment</span>
            <div className="file-control">
              {removeAttachment
                ? <span className="file-name">{line!.doc || "Attachment"} (removed when saved)</span>
                : <a href={line!.fileURL!} target="_blank" rel="noopener">{line!.doc || "Attachment"}</a>}
              {/* One button that changes its label, so focus stays on it. */}
              <Button className="btn" onPress={() => setRemoveAttachment((r) => !r)}>
                {removeAttachment ? "Keep attachment" : "Remove attachment"}
              </Button>
            </div>
          </div>
        )}
        {!isQuote && (
          <FileField
            label={hasAttachment && !removeAttachment ? "Replace attachment" : "Attachment"}
            value={file}
            onChange={(f) => {
              setFile(f);
              touch(FILE);
              clear(FILE);
            }}
            error={shown(FILE)}
          />
        )}
      </FormDialog>
      {figures && <AvailabilityDialog figures={figures} onClose={() => setFigures(null)} />}
    </>
  );
}

const PERCENT_LABELS = {
  discount: "Discount (%)",
  markup: "Markup (%)",
  state_tax: "State Tax (%)",
  county_tax: "County Tax (%)",
  city_tax: "City Tax (%)",
};
