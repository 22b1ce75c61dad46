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
 * An async autocomplete. With `load`, what the user types is looked up once it has settled for `debounceMs`
 * (the spec's 300 ms; 100 ms for the batch part search); with nothing to offer it reads 'Type to begin
 * searching'. With `loadAll` instead (a short list, such as the business units), opening it asks for the
 * whole list and typing filters it here. A failed lookup is only logged, as the spec says; `emptyOnError`
 * empties the list instead of keeping it.
 */
export function ComboBox({
  label,
  selected,
  onChange,
  load,
  loadAll,
  debounceMs = 300,
  error,
  isDisabled,
  isRequired,
  onBlur,
  noMatchText = "No matches found",
  emptyOnError,
  initialInput,
  autoFocus,
}:
  & {
    label: string;
    selected: ComboOption | null;
    onChange: (v: ComboOption | null) => void;
    debounceMs?: number;
    error?: string;
    isDisabled?: boolean;
    isRequired?: boolean;
    onBlur?: () => void;
    /** what the open list says when a search found nothing (not "Type to begin searching") */
    noMatchText?: string;
    emptyOnError?: boolean;
    /** text already typed in a stand-in it replaces (UnitChoice) */
    initialInput?: string;
    autoFocus?: boolean;
  }
  & (
    | { load: (text: string, signal: AbortSignal) => Promise<ComboOption[]>; loadAll?: undefined }
    | { loadAll: () => Promise<ComboOption[]>; load?: undefined }
  )) {
  const [input, setInput] = useState(initialInput ?? selected?.name ?? "");
  // Found by the last lookup (`load`), or the whole list (`loadAll`; null until it came).
  const [items, setItems] = useState<ComboOption[] | null>(loadAll ? null : selected ? [selected] : []);
  // Nothing is looked up until the user types: the initial text is the selection, not a search.
  const [typed, setTyped] = useState(initialInput !== undefined && initialInput !== (selected?.name ?? ""));
  const text = useDebounced(input, debounceMs);
  // The text the last lookup answered: an empty answer for what is typed now is "no matches".
  const [answered, setAnswered] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const failed = (e: unknown) => {
    if ((e as Error).name === "AbortError") return;
    console.error("lookup failed", label, e);
    if (emptyOnError) setItems([]);
  };

  useEffect(() => {
    // Only settled text is looked up (not the stale value while the debounce catches up).
    if (!loadRef.current || !typed || text !== input) return;
    const ac = new AbortController();
    loadRef.current(text, ac.signal).then((found) => {
      if (ac.signal.aborted) return;
      setItems(found);
      setAnswered(text);
    }).catch(failed);
    return () => ac.abort();
  }, [text, input, typed, label]);

  // A selection changed from outside (a reset, another control) shows its name and offers the whole list.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    if (input === (selected?.name ?? "")) return;
    setInput(selected?.name ?? "");
    setTyped(false);
  }, [selected?.id, selected?.name]);

  let offered = items ?? (selected ? [selected] : []);
  const filter = input.trim().toLowerCase();
  if (loadAll && typed && filter) offered = offered.filter((o) => o.name.toLowerCase().includes(filter));
  // The selection must stay in the collection, or the input would lose its text.
  const shown = selected && !offered.some((i) => i.id === selected.id) ? [selected, ...offered] : offered;
  const emptyText = loadAll
    ? (items === null ? "Loading..." : noMatchText)
    : !typed || !input.trim()
    ? undefined
    : answered === input
    ? noMatchText
    : "Searching...";

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
        if (!loadAll || picked?.id !== selected?.id) onChange(picked);
        // Escape (or leaving the field) commits no pick: the text goes back to the selection, or the list
        // would open again on the text left behind and a second Escape would never reach the dialog.
        setInput(picked?.name ?? "");
        // A whole list is offered whole again once a choice is made.
        if (!picked || loadAll) setTyped(false);
      }}
      onOpenChange={(isOpen) => isOpen && loadAll?.().then(setItems).catch(failed)}
      disabledKeys={shown.filter((o) => o.disabled).map((o) => o.id)}
      isInvalid={!!error}
      isDisabled={isDisabled}
      isRequired={isRequired}
      validationBehavior="aria"
      allowsEmptyCollection
      menuTrigger="focus"
      onBlur={onBlur}
      autoFocus={autoFocus}
    >
      <Label>{label}</Label>
      <ComboBoxBody<ComboOption>
        label={label}
        error={error}
        text={(o) => o.name}
        detail={(o) => o.detail}
        emptyText={emptyText}
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
