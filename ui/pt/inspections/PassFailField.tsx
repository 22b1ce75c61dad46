import { useId } from "react";

/** A pass/fail answer and the words for it: not recorded first, as every such field starts (issue 32). */
const CHOICES = [[null, "Not recorded"], [true, "Yes"], [false, "No"]] as const;

/**
 * A pass/fail field that may be left unanswered (issue 32): "Not recorded", "Yes" and "No" as native radios
 * in one row, each label a touch target, so an inspection saved without touching it records no result
 * rather than a failure. Native, like the form's other first-load controls (decision 022).
 */
export function PassFailField({ label, value, onChange }: {
  label: string;
  value: boolean | null;
  onChange: (v: boolean | null) => void;
}) {
  const name = useId();
  return (
    <fieldset className="pass-fail">
      <legend>{label}</legend>
      {CHOICES.map(([choice, words]) => (
        <label key={words}>
          <input type="radio" name={name} checked={value === choice} onChange={() => onChange(choice)} />
          {words}
        </label>
      ))}
    </fieldset>
  );
}
