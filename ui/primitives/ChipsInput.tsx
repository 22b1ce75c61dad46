import { type ClipboardEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Icon } from "../components/icons.tsx";

/**
 * A list of short values as chips (the batch form's serial numbers). Enter or a comma adds what was
 * typed; pasted 'A1,A2,A3' becomes three chips; Backspace in the empty input removes the last chip;
 * each chip has its own 'Remove <value>' button; leaving the field keeps what was typed. `split`
 * turns text into values (splitting on commas, dropping blanks and repeats).
 */
export function ChipsInput({ label, value, onChange, split, error, description, isDisabled, onBlur }: {
  label: string;
  value: string[];
  onChange: (v: string[]) => void;
  split: (v: string[]) => string[];
  error?: string;
  description?: string;
  isDisabled?: boolean;
  onBlur?: () => void;
}) {
  const [text, setText] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  // A value typed or pasted again is not added twice, and not dropped without a word: the field says so.
  const [repeated, setRepeated] = useState("");
  const add = (more: string) => {
    let next = value;
    const repeats: string[] = [];
    for (const part of more.split(",")) {
      if (!part.trim()) continue;
      const grown = split([...next, part]);
      if (grown.length === next.length) repeats.push(part.trim());
      else next = grown;
    }
    if (next !== value) onChange(next);
    setRepeated(
      repeats.length
        ? `${repeats.join(", ")} ${repeats.length === 1 ? "is" : "are"} already in the list.`
        : "",
    );
    setText("");
  };
  const remove = (i: number) => {
    onChange(value.filter((_, j) => j !== i));
    input.current?.focus();
  };
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === "Enter" || e.key === ",") && text.trim()) {
      e.preventDefault();
      add(text);
    } else if (e.key === "Enter") {
      // An empty Enter must not submit the dialog's form by accident.
      e.preventDefault();
    } else if (e.key === "Backspace" && text === "" && value.length) {
      e.preventDefault();
      onChange(value.slice(0, -1));
    }
  };
  const paste = (e: ClipboardEvent<HTMLInputElement>) => {
    const pasted = e.clipboardData.getData("text");
    if (!/[,\n\r\t]/.test(pasted)) return;
    e.preventDefault();
    add(`${text}${pasted.replace(/[\n\r\t]+/g, ",")}`);
  };

  return (
    <div className={`field chips-field${error ? " is-invalid" : ""}`}>
      <label htmlFor={`${id}-input`}>{label}</label>
      <div
        className="chips-input"
        data-disabled={isDisabled || undefined}
        onClick={(e) => e.target === e.currentTarget && input.current?.focus()}
      >
        {value.length > 0 && (
          <ul className="chips">
            {value.map((v, i) => (
              <li className="chip" key={v}>
                <span>{v}</span>
                <Button
                  className="chip-remove"
                  aria-label={`Remove ${v}`}
                  isDisabled={isDisabled}
                  onPress={() => remove(i)}
                >
                  <Icon name="close" size={16} />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={`${id}-input`}
          value={text}
          disabled={isDisabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
          onChange={(e) => {
            const t = e.target.value;
            // A comma typed or dropped in the middle: everything before the last comma becomes chips.
            if (t.includes(",")) add(t.slice(0, t.lastIndexOf(",")));
            setText(t.includes(",") ? t.slice(t.lastIndexOf(",") + 1) : t);
          }}
          onKeyDown={keyDown}
          onPaste={paste}
          onBlur={() => {
            if (text.trim()) add(text);
            onBlur?.();
          }}
        />
      </div>
      <span className="field-help" id={`${id}-help`}>
        {description ?? "Press Enter or type a comma after each one, or paste a comma-separated list."}
        {value.length > 0 && ` ${value.length} entered.`}
      </span>
      <span className="field-note" role="status">{repeated}</span>
      {error && <span className="field-error" id={`${id}-error`}>{error}</span>}
    </div>
  );
}
