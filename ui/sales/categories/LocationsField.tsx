import { useRef } from "react";
import { Button } from "react-aria-components";
import { TextField } from "../../primitives/TextField.tsx";
import { Icon } from "../../components/icons.tsx";
import type { LocationRename } from "../../../api/sales/categories/schemas.ts";

/** One line of the list: the name as stored when the form opened (null for a new one) and now. */
export interface LocationLine {
  key: number;
  original: string | null;
  name: string;
}

export const linesOf = (names: readonly string[]): LocationLine[] =>
  names.map((n, i) => ({ key: i, original: n, name: n }));

/**
 * The renames a list of lines makes: a stored location given a new name that was not a location
 * before. The server moves the stock held there; anything else is a removal plus an addition.
 */
export function renamesOf(lines: readonly LocationLine[]): LocationRename[] {
  const before = lines.flatMap((l) => (l.original === null ? [] : [l.original]));
  const after = lines.map((l) => l.name.trim());
  return lines.flatMap((l) => {
    const to = l.name.trim();
    if (l.original === null || !to || to === l.original) return [];
    if (after.includes(l.original) || before.includes(to)) return [];
    return [{ from: l.original, to }];
  });
}

/**
 * A business unit's yard locations: one text field per location (edit to rename), a button to add
 * one and one to remove each. 'Base' is the default location and cannot be listed.
 */
export function LocationsField({ lines, onChange, errors, onBlur }: {
  lines: LocationLine[];
  onChange: (lines: LocationLine[]) => void;
  /** by index in `lines` */
  errors: Record<number, string | undefined>;
  onBlur: (index: number) => void;
}) {
  const nextKey = useRef(lines.length + 1000);
  return (
    <fieldset className="field locations-field" style={{ border: 0, padding: 0, margin: "0 0 12px" }}>
      <legend style={{ fontWeight: 600, padding: 0, marginBottom: 4 }}>Locations</legend>
      <p className="field-note">Stock not at a listed location is at 'Base'.</p>
      {lines.map((l, i) => (
        <div key={l.key} style={{ display: "flex", gap: 8, alignItems: "flex-start" }}>
          <div style={{ flex: 1 }}>
            <TextField
              label={`Location ${i + 1}`}
              value={l.name}
              onChange={(v) => onChange(lines.map((x, j) => (j === i ? { ...x, name: v } : x)))}
              onBlur={() => onBlur(i)}
              error={errors[i]}
              autoFocus={l.original === null && i === lines.length - 1}
            />
          </div>
          <Button
            className="icon-btn icon-btn-danger"
            aria-label={`Remove location ${i + 1}`}
            style={{ marginTop: 26 }}
            onPress={() => onChange(lines.filter((_, j) => j !== i))}
          >
            <Icon name="close" size={20} />
          </Button>
        </div>
      ))}
      <Button
        className="btn"
        onPress={() => onChange([...lines, { key: nextKey.current++, original: null, name: "" }])}
      >
        <Icon name="add" size={18} />Add Location
      </Button>
    </fieldset>
  );
}
