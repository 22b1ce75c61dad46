import type { ReactNode } from "react";
import { Icon } from "../components/icons.tsx";

/** The drawn box of a checkbox (the input itself is visually hidden). */
export function Box({ isSelected }: { isSelected: boolean }) {
  return <span className="box" aria-hidden="true">{isSelected && <Icon name="check" size={16} />}</span>;
}

/**
 * A labelled checkbox: the whole label is the touch target. A native input (visually hidden, the box
 * drawn beside it), so the filters that load with a page carry no react-aria code (decision 022).
 */
export function Checkbox({ children, isSelected = false, onChange, isDisabled }: {
  children: ReactNode;
  isSelected?: boolean;
  onChange?: (v: boolean) => void;
  isDisabled?: boolean;
}) {
  return (
    <label
      className="checkbox"
      data-selected={isSelected || undefined}
      data-disabled={isDisabled || undefined}
    >
      <input
        type="checkbox"
        className="sr-only"
        checked={isSelected}
        disabled={isDisabled}
        onChange={(e) => onChange?.(e.target.checked)}
      />
      <Box isSelected={isSelected} />
      <span>{children}</span>
    </label>
  );
}
