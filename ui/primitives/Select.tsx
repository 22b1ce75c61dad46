import { useOpenNow } from "../lib/hooks.ts";
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
} from "react-aria-components";
import { Icon } from "../components/icons.tsx";

export interface SelectOption {
  id: string;
  label: string;
}

/** A labelled single-choice list (react-aria: keyboard, type-ahead, screen readers), error under it. */
export function Select({
  label,
  options,
  value,
  onChange,
  error,
  isDisabled,
  isRequired,
  name,
  placeholder = "Select...",
  onBlur,
  className = "field",
  openNow,
}: {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (v: string) => void;
  error?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
  name?: string;
  placeholder?: string;
  onBlur?: () => void;
  className?: string;
  /** it replaces LazySelect's button just pressed: take focus, then open (closing returns focus here) */
  openNow?: boolean;
}) {
  const { button, isOpen, setOpen } = useOpenNow(openNow);
  return (
    <AriaSelect
      isOpen={isOpen}
      onOpenChange={setOpen}
      className={`${className} select`}
      value={value}
      onChange={(k) => k !== null && onChange(String(k))}
      isInvalid={!!error}
      isDisabled={isDisabled}
      isRequired={isRequired}
      validationBehavior="aria"
      name={name}
      placeholder={placeholder}
      onBlur={onBlur}
    >
      <Label>{label}</Label>
      <Button ref={button} className="select-trigger">
        <SelectValue className="select-value" />
        <Icon name="expand" size={20} />
      </Button>
      <FieldError className="field-error">{error}</FieldError>
      <Popover className="popover">
        <ListBox className="listbox" items={options}>
          {(o) => <ListBoxItem className="listbox-item" id={o.id}>{o.label}</ListBoxItem>}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
