import { SearchBox } from "./SearchBox.tsx";
import { DateSearch } from "./DateSearch.tsx";

export interface FilterField<K extends string> {
  key: K;
  label: string;
  date?: boolean;
}

type Keep = Record<string, string | number | boolean | undefined>;

/**
 * A list's text and date filters. Each is its own GET form carrying the rest of the table's state
 * (less the page), so Enter works before hydration; `onApply` gets the field's key and new value
 * (undefined when cleared).
 */
export function FilterFields<K extends string>({ fields, query, onApply, textDebounceMs, dateDebounceMs }: {
  fields: readonly FilterField<K>[];
  query: object;
  onApply: (key: K, value: string | undefined) => void;
  /** undefined: a text filter applies on Enter or blur only */
  textDebounceMs?: number;
  dateDebounceMs?: number;
}) {
  const keep = (own: K): Keep => {
    const { page: _page, [own]: _own, ...rest } = query as Record<string, unknown>;
    return rest as Keep;
  };
  return (
    <>
      {fields.map((f) => {
        const common = {
          label: f.label,
          name: f.key,
          value: String((query as Record<string, unknown>)[f.key] ?? ""),
          keep: keep(f.key),
          onApply: (v: string) => onApply(f.key, v || undefined),
        };
        return f.date
          ? <DateSearch key={f.key} {...common} debounceMs={dateDebounceMs} />
          : <SearchBox key={f.key} {...common} debounceMs={textDebounceMs} />;
      })}
    </>
  );
}
