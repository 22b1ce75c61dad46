import { FieldError, Input, Label, TextArea, TextField as AriaTextField } from "react-aria-components";

/** A labelled text input with its error message (the spec's validation texts) under it. */
export function TextField(
  {
    label,
    value,
    onChange,
    error,
    type = "text",
    isDisabled,
    isReadOnly,
    isRequired,
    autoComplete,
    multiline,
    name,
    autoFocus,
    rows,
    onBlur,
  }: {
    label: string;
    value: string;
    onChange: (v: string) => void;
    error?: string;
    type?: "text" | "email" | "password" | "tel" | "date" | "number" | "search";
    isDisabled?: boolean;
    isReadOnly?: boolean;
    isRequired?: boolean;
    autoComplete?: string;
    /** "code": a monospace text area (JSON). */
    multiline?: boolean | "code";
    name?: string;
    autoFocus?: boolean;
    rows?: number;
    /** Marks the field touched, so its message shows only once the user has been there. */
    onBlur?: () => void;
  },
) {
  return (
    <AriaTextField
      className="field"
      value={value}
      onChange={onChange}
      isInvalid={!!error}
      isDisabled={isDisabled}
      isReadOnly={isReadOnly}
      isRequired={isRequired}
      validationBehavior="aria"
      type={type}
      name={name}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      onBlur={onBlur}
    >
      <Label>{label}</Label>
      {multiline
        ? <TextArea rows={rows ?? 4} className={multiline === "code" ? "code" : undefined} />
        : <Input />}
      <FieldError className="field-error">{error}</FieldError>
    </AriaTextField>
  );
}
