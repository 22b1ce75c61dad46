import { type ReactNode, useId } from "react";
import {
  Checkbox as AriaCheckbox,
  CheckboxGroup as AriaCheckboxGroup,
  FieldError,
  Label,
} from "react-aria-components";
import { Box } from "./Checkbox.tsx";

/**
 * One box of a CheckboxGroup: react-aria's, which takes its state from the group. A description is a line
 * under the label, read as the box's description (not part of its name).
 */
function GroupCheckbox({ children, value, isDisabled, description }: {
  children: ReactNode;
  value: string;
  isDisabled?: boolean;
  description?: string;
}) {
  const id = useId();
  return (
    <AriaCheckbox
      className="checkbox"
      value={value}
      isDisabled={isDisabled}
      aria-describedby={description ? id : undefined}
    >
      {({ isSelected }) => (
        <>
          <Box isSelected={isSelected} />
          <span className="checkbox-text">
            <span>{children}</span>
            {description && <span id={id} className="field-note">{description}</span>}
          </span>
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
  options: readonly { value: string; label: string; description?: string }[];
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
          <GroupCheckbox
            key={o.value}
            value={o.value}
            isDisabled={disabledValues.includes(o.value)}
            description={o.description}
          >
            {o.label}
          </GroupCheckbox>
        ))}
      </div>
      <FieldError className="field-error">{error}</FieldError>
    </AriaCheckboxGroup>
  );
}
