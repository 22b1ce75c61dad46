import { useEffect, useRef, useState } from "react";
import { ComboBox as AriaComboBox, Label } from "react-aria-components";
import { ComboBoxBody } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { ALL_SEARCH } from "../../../api/sales/categories/schemas.ts";
import type { UnitOption } from "./types.ts";

/** Every business unit (the spec's '!ALL' search), asked once per page and shared by the pickers. */
let all: Promise<UnitOption[]> | undefined;
export function loadAllUnits(): Promise<UnitOption[]> {
  all ??= api<{ results: UnitOption[] }>("/api/sales/categories", {
    query: { model: "Business Unit", search_name: ALL_SEARCH },
  }).then((r) => r.results.map(({ id, name }) => ({ id, name })));
  all.catch(() => (all = undefined));
  return all;
}

/**
 * The business unit choice of the templates page and form: opening it loads every unit ('!ALL'),
 * typing filters them. A failed load is only logged; `emptyOnError` (the template form) empties
 * the list instead of keeping it, as the spec says.
 */
export function UnitPicker(
  {
    selected,
    onChange,
    error,
    onBlur,
    isRequired,
    emptyOnError,
    label = "Business Unit",
    initialInput,
    autoFocus,
  }: {
    selected: UnitOption | null;
    onChange: (u: UnitOption | null) => void;
    error?: string;
    onBlur?: () => void;
    isRequired?: boolean;
    emptyOnError?: boolean;
    label?: string;
    /** text already typed in the stand-in it replaces (UnitChoice) */
    initialInput?: string;
    autoFocus?: boolean;
  },
) {
  const [units, setUnits] = useState<UnitOption[] | null>(null);
  const [input, setInput] = useState(initialInput ?? selected?.name ?? "");
  // Until the user types, the text is the selection and every unit is offered.
  const [typed, setTyped] = useState(initialInput !== undefined && initialInput !== (selected?.name ?? ""));
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setInput(selected?.name ?? "");
    setTyped(false);
  }, [selected?.id, selected?.name]);

  const open = () => {
    loadAllUnits().then(setUnits).catch((e) => {
      console.error("lookup failed", label, e);
      if (emptyOnError) setUnits([]);
    });
  };
  const known = units ?? (selected ? [selected] : []);
  const text = input.trim().toLowerCase();
  const matching = typed && text ? known.filter((u) => u.name.toLowerCase().includes(text)) : known;
  // The selection must stay in the collection, or the input would lose its text.
  const shown = selected && !matching.some((u) => u.id === selected.id) ? [selected, ...matching] : matching;

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
        const picked = shown.find((u) => u.id === key) ?? null;
        if (picked?.id === selected?.id) {
          // Escape commits the same choice: the text goes back to it, or the list would open again on
          // the text left behind (ComboBox.tsx).
          setInput(picked?.name ?? "");
          setTyped(false);
          return;
        }
        onChange(picked);
        if (picked) setInput(picked.name);
        setTyped(false);
      }}
      onOpenChange={(isOpen) => isOpen && open()}
      isInvalid={!!error}
      isRequired={isRequired}
      validationBehavior="aria"
      allowsEmptyCollection
      menuTrigger="focus"
      onBlur={onBlur}
      autoFocus={autoFocus}
    >
      <Label>{label}</Label>
      <ComboBoxBody<UnitOption>
        label={label}
        error={error}
        text={(u) => u.name}
        emptyText={units === null ? "Loading..." : "No Business Units Found"}
      />
    </AriaComboBox>
  );
}
