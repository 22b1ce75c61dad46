import type { ReactNode } from "react";
import {
  Checkbox as AriaCheckbox,
  CheckboxGroup as AriaCheckboxGroup,
  FieldError,
  Label,
} from "react-aria-components";
import { Icon } from "../components/icons.tsx";

function Box({ isSelected }: { isSelected: boolean }) {
  return <span className="box" aria-hidden="true">{isSelected && <Icon name="check" size={16} />}</span>;
}

/** A labelled checkbox: the whole label is the touch target. */
export function Checkbox({ children, isSelected, onChange, isDisabled, value }: {
  children: ReactNode;
  isSelected?: boolean;
  onChange?: (v: boolean) => void;
  isDisabled?: boolean;
  /** Inside a CheckboxGroup: the value this box stands for. */
  value?: string;
}) {
  return (
    <AriaCheckbox
      className="checkbox"
      isSelected={isSelected}
      onChange={onChange}
      isDisabled={isDisabled}
      value={value}
    >
      {({ isSelected }) => (
        <>
          <Box isSelected={isSelected} />
          <span>{children}</span>
        </>
      )}
    </AriaCheckbox>
  );
}

/** A labelled group of checkboxes holding a list of values (roles and permissions). */
export function CheckboxGroup({ label, value, onChange, options, isDisabled, disabledValues = [], error }: {
  label: string;
  value: string[];
  onChange: (v: string[]) => void;
  options: readonly { value: string; label: string }[];
  isDisabled?: boolean;
  /** Values the user may see but not change (the superuser role for a non-superuser). */
  disabledValues?: readonly string[];
  error?: string;
}) {
  return (
    <AriaCheckboxGroup
      className="field checkbox-group"
      value={value}
      onChange={onChange}
      isDisabled={isDisabled}
      isInvalid={!!error}
      validationBehavior="aria"
    >
      <Label>{label}</Label>
      <div className="checkbox-grid">
        {options.map((o) => (
          <Checkbox key={o.value} value={o.value} isDisabled={disabledValues.includes(o.value)}>
            {o.label}
          </Checkbox>
        ))}
      </div>
      <FieldError className="field-error">{error}</FieldError>
    </AriaCheckboxGroup>
  );
}
