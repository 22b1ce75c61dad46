import { useEffect, useId, useRef, useState } from "react";
import { Icon } from "./icons.tsx";
import { useDebounced } from "../lib/hooks.ts";

/**
 * A search field in a GET form: Enter searches even before the island hydrates. Once hydrated, the
 * text is applied on Enter and on leaving the field (Tab), and, with `debounceMs`, as it settles.
 * `keep` holds the other table parameters the form must carry (size, sort). A native labelled input:
 * it loads with the page, so it carries no react-aria code (page JavaScript budget, decision 022).
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
  const id = useId();
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
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="search-control">
          <Icon name="search" size={20} />
          <input
            id={id}
            type="search"
            name={name}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => apply(text)}
          />
        </div>
      </div>
    </form>
  );
}
