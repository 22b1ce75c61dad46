import { Button, FieldError, Input, Label, TextField as AriaTextField } from "react-aria-components";
import { TextField } from "../../primitives/TextField.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { type ChosenFile, FileField } from "../../primitives/FileField.tsx";
import { formatNumber } from "../../../lib/format.ts";
import { FILE } from "./attachment_file.ts";
import { fieldLabel, type Values } from "./line_values.ts";

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

/** How the fields talk to the form: a field's setter, its blur (touched), its shown message. */
export interface FieldProps {
  v: Values;
  set: (k: keyof Values) => (value: string | boolean) => void;
  touch: (k: string) => void;
  shown: (k: string) => string | undefined;
}

/**
 * The line's figures: start, end and hours (not on quotes), quantity with what is available, the
 * min rate in min-rate mode, the price (additional-day rate) and duration (additional days), then
 * discount, markup and the three taxes.
 */
export function LineFigures({ v, set, touch, shown, isQuote, minRate, hours, available }: FieldProps & {
  isQuote: boolean;
  minRate: boolean;
  hours: number | null;
  /** the row's available quantity, when the form shows it */
  available: number | null;
}) {
  const text = (k: keyof Values, isRequired = false) => (
    <TextField
      key={k}
      label={fieldLabel(k, minRate)}
      value={v[k] as string}
      onChange={set(k)}
      onBlur={() => touch(k)}
      error={shown(k)}
      isRequired={isRequired}
    />
  );
  return (
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
      {available !== null && (
        <TextField
          label="Available Quantity"
          value={formatNumber(available)}
          onChange={() => {}}
          isReadOnly
        />
      )}
      {minRate && text("minimum_rate", true)}
      {text("price", true)}
      {text("duration")}
      {(["discount", "markup", "state_tax", "county_tax", "city_tax"] as const).map((k) => text(k))}
    </div>
  );
}

/** Notes and 'Hide when printing'. */
export function LineNotes({ v, set, shown }: FieldProps) {
  return (
    <>
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
    </>
  );
}

/**
 * The line's PDF (not on quotes): the current one as a link with Remove/Keep (one button whose label
 * changes, so focus stays on it), and the file field to add or replace it.
 */
export function LineAttachment({ current, remove, onToggleRemove, file, onFile, error }: {
  /** the stored attachment's link and name, if the line has one */
  current: { url: string; name: string } | null;
  remove: boolean;
  onToggleRemove: () => void;
  file: ChosenFile | null;
  onFile: (f: ChosenFile | null) => void;
  error?: string;
}) {
  return (
    <>
      {current && (
        <div className="field">
          <span>Current attachment</span>
          <div className="file-control">
            {remove
              ? <span className="file-name">{current.name} (removed when saved)</span>
              : <a href={current.url} target="_blank" rel="noopener">{current.name}</a>}
            <Button className="btn" onPress={onToggleRemove}>
              {remove ? "Keep attachment" : "Remove attachment"}
            </Button>
          </div>
        </div>
      )}
      <FileField
        label={current && !remove ? "Replace attachment" : "Attachment"}
        value={file}
        onChange={onFile}
        error={error}
      />
    </>
  );
}

export { FILE };
