import { useEffect, useRef, useState } from "react";
import { Input, Label, TextField } from "react-aria-components";
import { Icon } from "./icons.tsx";
import { useDebounced } from "../lib/hooks.ts";

/**
 * A search field in a GET form: Enter searches even before the island hydrates. Once hydrated, the
 * text is applied on Enter and on leaving the field (Tab), and, with `debounceMs`, as it settles.
 * `keep` holds the other table parameters the form must carry (size, sort).
 */
export function SearchBox({ label, name, value, onApply, keep = {}, debounceMs }: {
  label: string;
  name: string;
  /** the search in force */
  value: string;
  onApply: (text: string) => void;
  keep?: Record<string, string | number | boolean | undefined>;
  debounceMs?: number;
}) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  const settled = useDebounced(text, debounceMs ?? 0);
  const apply = (t: string) => {
    if (t.trim() === applied.current.trim()) return;
    applied.current = t;
    onApply(t.trim());
  };
  const applyRef = useRef(apply);
  applyRef.current = apply;
  useEffect(() => {
    if (debounceMs !== undefined) applyRef.current(settled);
  }, [settled, debounceMs]);

  return (
    <form
      method="get"
      role="search"
      className="search-box"
      onSubmit={(e) => {
        e.preventDefault();
        apply(text);
      }}
    >
      {Object.entries(keep).map(([k, v]) =>
        v === undefined || v === "" ? null : <input key={k} type="hidden" name={k} value={String(v)} />
      )}
      <TextField className="field" name={name} value={text} onChange={setText} onBlur={() => apply(text)}>
        <Label>{label}</Label>
        <div className="search-control">
          <Icon name="search" size={20} />
          <Input type="search" />
        </div>
      </TextField>
    </form>
  );
}
