import { SearchBox } from "./SearchBox.tsx";
import { DateSearch } from "./DateSearch.tsx";

export interface FilterField<K extends string> {
  key: K;
  label: string;
  date?: boolean;
}

type Keep = Record<string, string | number | boolean | undefined>;

/**
 * A list's text and date filters, bound to its state (`useCrudList`'s `list`). Each is its own GET
 * form carrying the rest of the table's state (less the page and `omit`), so Enter works before
 * hydration; applying one sets its key (unset when cleared) and goes back to the first page.
 */
export function FilterFields<K extends string>({ list, fields, omit = [], textDebounceMs, dateDebounceMs }: {
  list: { query: object; update(patch: Record<string, unknown>): void };
  fields: readonly FilterField<K>[];
  /** State the page's URL does not take (set by the page itself, such as the categories' model). */
  omit?: readonly string[];
  /** undefined: a text filter applies on Enter or blur only */
  textDebounceMs?: number;
  dateDebounceMs?: number;
}) {
  const query = list.query as Record<string, unknown>;
  const keep = (own: K): Keep =>
    Object.fromEntries(
      Object.entries(query).filter(([k]) => k !== "page" && k !== own && !omit.includes(k)),
    ) as Keep;
  return (
    <>
      {fields.map((f) => {
        const common = {
          label: f.label,
          name: f.key,
          value: String(query[f.key] ?? ""),
          keep: keep(f.key),
          onApply: (v: string) => list.update({ [f.key]: v || undefined, page: 1 }),
        };
        return f.date
          ? <DateSearch key={f.key} {...common} debounceMs={dateDebounceMs} />
          : <SearchBox key={f.key} {...common} debounceMs={textDebounceMs} />;
      })}
    </>
  );
}
