import { useId } from "react";
import type { SelectOption } from "./Select.tsx";

/**
 * A labelled native select, for the choices a page shows as it loads (a list's page size and
 * filters): no react-aria code comes with the page (decision 022). Forms in dialogs use `Select`.
 */
export function NativeSelect({ label, options, value, onChange, isDisabled, className = "field" }: {
  label: string;
  options: readonly SelectOption[];
  value: string;
  onChange: (v: string) => void;
  isDisabled?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={isDisabled}>
        {options.map((o) => <option key={o.id} value={o.id}>{o.label}</option>)}
      </select>
    </div>
  );
}
