import { useEffect, useRef, useState } from "react";
import {
  Button,
  ComboBox as AriaComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
} from "react-aria-components";
import { Icon } from "../components/icons.tsx";
import { useDebounced } from "../lib/hooks.ts";

export interface ComboOption {
  id: number;
  name: string;
  /** A second line under the name in the list (e.g. a stock row's unit, availability and status). */
  detail?: string;
  /** Shown (with its detail saying why) but cannot be chosen. */
  disabled?: boolean;
}

/**
 * An async autocomplete: what the user types is looked up with `load` once it has settled for
 * `debounceMs` (the spec's 300 ms; 100 ms for the batch part search). With nothing to offer it reads
 * 'Type to begin searching'. A failed lookup is only logged, as the spec says.
 */
export function ComboBox({
  label,
  selected,
  onChange,
  load,
  debounceMs = 300,
  error,
  isDisabled,
  isRequired,
  onBlur,
  noMatchText = "No matches found",
}: {
  label: string;
  selected: ComboOption | null;
  onChange: (v: ComboOption | null) => void;
  load: (text: string, signal: AbortSignal) => Promise<ComboOption[]>;
  debounceMs?: number;
  error?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
  onBlur?: () => void;
  /** what the open list says when a search found nothing (not "Type to begin searching") */
  noMatchText?: string;
}) {
  const [input, setInput] = useState(selected?.name ?? "");
  const [items, setItems] = useState<ComboOption[]>(selected ? [selected] : []);
  // Nothing is looked up until the user types: the initial text is the selection, not a search.
  const [typed, setTyped] = useState(false);
  const text = useDebounced(input, debounceMs);
  // The text the last lookup answered: an empty answer for what is typed now is "no matches".
  const [answered, setAnswered] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    // Only settled text is looked up (not the stale value while the debounce catches up).
    if (!typed || text !== input) return;
    const ac = new AbortController();
    loadRef.current(text, ac.signal).then((found) => {
      if (ac.signal.aborted) return;
      setItems(found);
      setAnswered(text);
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") console.error("lookup failed", label, e);
    });
    return () => ac.abort();
  }, [text, input, typed, label]);

  // The selection must stay in the collection, or the input would lose its text.
  const shown = selected && !items.some((i) => i.id === selected.id) ? [selected, ...items] : items;

  return (
    <AriaComboBox
      className="field combobox"
      items={shown}
      inputValue={input}
      onInputChange={(v) => {
        setInput(v);
        if (v !== (selected?.name ?? "")) setTyped(true);
        if (v === "" && selected) onChange(null);
      }}
      value={selected?.id ?? null}
      onChange={(key) => {
        const picked = shown.find((i) => i.id === key) ?? null;
        onChange(picked);
        // Escape (or leaving the field) commits no pick: the text goes back to the selection, or the list
        // would open again on the text left behind and a second Escape would never reach the dialog.
        setInput(picked?.name ?? "");
        if (!picked) setTyped(false);
      }}
      disabledKeys={shown.filter((o) => o.disabled).map((o) => o.id)}
      isInvalid={!!error}
      isDisabled={isDisabled}
      isRequired={isRequired}
      validationBehavior="aria"
      allowsEmptyCollection
      menuTrigger="focus"
      onBlur={onBlur}
    >
      <Label>{label}</Label>
      <ComboBoxBody<ComboOption>
        label={label}
        error={error}
        text={(o) => o.name}
        detail={(o) => o.detail}
        emptyText={!typed || !input.trim() ? undefined : answered === input ? noMatchText : "Searching..."}
      />
    </AriaComboBox>
  );
}

/**
 * The parts every combobox here shares, placed inside a react-aria ComboBox: the input with its
 * named toggle button, the error, and the popover list (with its empty text).
 */
export function ComboBoxBody<T extends { id: number }>(
  { label, error, text, detail, emptyText, placeholder }: {
    label: string;
    error?: string;
    text: (o: T) => string;
    /** an option's second line, if any */
    detail?: (o: T) => string | undefined;
    emptyText?: string;
    placeholder?: string;
  },
) {
  return (
    <>
      <div className="combobox-control">
        <Input placeholder={placeholder} />
        <Button className="combobox-button" aria-label={`Show ${label} options`}>
          <Icon name="expand" size={20} />
        </Button>
      </div>
      <FieldError className="field-error">{error}</FieldError>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <div className="listbox-empty">{emptyText ?? "Type to begin searching"}</div>
          )}
        >
          {(o: T) => (
            <ListBoxItem className="listbox-item" id={o.id} textValue={text(o)}>
              {text(o)}
              {detail?.(o) && <span className="listbox-detail">{detail(o)}</span>}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </>
  );
}
