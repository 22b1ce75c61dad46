import { type CheckInEntry, logFigures } from "./lines.ts";
import type { Line } from "./types.ts";
import { CHECK_IN_FORM_ID, field } from "./checkin_form.ts";

/**
 * A line's check-in cells: select, Date, # In, Remove Quantity (Itemized only), # Sold and # Reclass;
 * a line without an entry, or a charge code, reads 'Nothing to check in' across them. Each is a field of the
 * check-in form (`checkin_form.ts`): before the scripts the form posts them as they are (decision 056).
 */
export function CheckInCells({ line: l, entry, error, set }: {
  line: Line;
  entry: CheckInEntry | undefined;
  error: string | undefined;
  set: (id: number, patch: Partial<CheckInEntry>) => void;
}) {
  const serial = l.sales_inventory.serial_number;
  const f = logFigures(l);
  if (!entry || l.sales_inventory.item.inventory_type === "Charge Code") {
    // a charge code holds no stock: nothing to check in or sell
    return <td colSpan={6} className="muted ci-none">Nothing to check in</td>;
  }
  return (
    <>
      <td className="ci-select" data-label="Select">
        {/* the label makes the whole cell a target for a gloved finger */}
        <label className="ci-check">
          <input
            type="checkbox"
            form={CHECK_IN_FORM_ID}
            name={field.select}
            value={l.id}
            aria-label={`Select ${serial}`}
            checked={entry.selected}
            onChange={(e) => set(l.id, { selected: e.target.checked })}
          />
        </label>
      </td>
      <td className="ci-date" data-label="Date">
        <input
          type="datetime-local"
          form={CHECK_IN_FORM_ID}
          name={field.date(l.id)}
          aria-label={`Date ${serial}`}
          value={entry.date}
          onChange={(e) => set(l.id, { date: e.target.value })}
        />
      </td>
      <td className="ci-in" data-label="# In">
        <input
          className="qty-input"
          inputMode="numeric"
          form={CHECK_IN_FORM_ID}
          name={field.quantityIn(l.id)}
          aria-label={`Quantity in ${serial}`}
          aria-invalid={!!error || undefined}
          disabled={l.isSold}
          title={l.isSold ? "A sold line is not checked in again" : `In so far: ${f.checkedIn}`}
          value={entry.quantityIn}
          onChange={(e) => set(l.id, { quantityIn: e.target.value, selected: true })}
        />
        {error && <div className="field-error" role="alert">{error}</div>}
      </td>
      <td className="ci-remove" data-label="Remove Quantity">
        {l.sales_inventory.item.inventory_type === "Itemized" && (
          <label className="ci-check">
            <input
              type="checkbox"
              form={CHECK_IN_FORM_ID}
              name={field.remove(l.id)}
              value="1"
              aria-label={`Remove quantity ${serial}`}
              checked={entry.remove}
              onChange={(e) => set(l.id, { remove: e.target.checked })}
            />
          </label>
        )}
      </td>
      <td className="ci-sold" data-label="# Sold">
        <input
          className="qty-input"
          inputMode="numeric"
          form={CHECK_IN_FORM_ID}
          name={field.quantitySold(l.id)}
          aria-label={`Quantity sold ${serial}`}
          aria-invalid={!!error || undefined}
          title={`Sold so far: ${f.sold}`}
          value={entry.quantitySold}
          onChange={(e) => set(l.id, { quantitySold: e.target.value, selected: true })}
        />
      </td>
      <td className="num ci-reclass" data-label="# Reclass">{f.reclassed}</td>
    </>
  );
}
