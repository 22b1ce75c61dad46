import { useEffect, useId, useRef, useState } from "react";
import { useDebounced } from "../lib/hooks.ts";
import { isIsoDate } from "../../lib/format.ts";

/**
 * A date filter in a GET form (Enter works before hydration). Applied on Enter, on leaving the field,
 * and once a complete date has settled for `debounceMs`; typing a year passes through 0002, 0020 and
 * 0202, so only a plausible year applies by itself. A native labelled input (no react-aria code at page
 * load: decision 022).
 */
export function DateSearch({ label, name, value, keep, onApply, debounceMs = 300 }: {
  label: string;
  name: string;
  value: string;
  keep: Record<string, string | number | boolean | undefined>;
  onApply: (v: string) => void;
  debounceMs?: number;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const applied = useRef(value);
  const apply = (t: string) => {
    if (t === applied.current || (t !== "" && !isIsoDate(t))) return;
    applied.current = t;
    onApply(t);
  };
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const settled = useDebounced(text, debounceMs);
  useEffect(() => {
    if (settled === "" || /^(19|20)\d\d-/.test(settled)) applyRef.current(settled);
  }, [settled]);
  return (
    <form
      method="get"
      role="search"
      className="search-box date-search"
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
        <input
          id={id}
          type="date"
          name={name}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => apply(text)}
        />
      </div>
    </form>
  );
}
