/**
 * What a form's 412 means field by field (decision 038), on the form's own values: `base` is what the form
 * was filled with, `mine` what the user has now, `theirs` the form filled from the record as it is now
 * (the 412's `current`). Pure, so the rules are tested without a browser.
 */

export type Values = Record<string, unknown>;

/** Picker values are `{id, name}` options: the same record is the same choice. */
export function same(a: unknown, b: unknown): boolean {
  const id = (
    x: unknown,
  ) => (x && typeof x === "object" && "id" in x ? (x as { id: unknown }).id : undefined);
  if (id(a) !== undefined || id(b) !== undefined) return String(id(a) ?? "") === String(id(b) ?? "");
  return JSON.stringify(a ?? "") === JSON.stringify(b ?? "");
}

/** The keys the user changed since the form was filled. */
export const changedKeys = (base: Values, mine: Values) =>
  Object.keys(mine).filter((k) => !same(base[k], mine[k]));

/** Theirs with the user's own changes on top: what "Apply mine on top" sends. */
export function mineOnTop<S extends Values>(base: S, mine: S, theirs: S): S {
  const out: Values = { ...theirs };
  for (const k of changedKeys(base, mine)) out[k] = mine[k];
  return out as S;
}

export interface ConflictRow {
  key: string;
  label: string;
  yours: string;
  theirs: string;
  /** both changed it, to different values: applying mine on top replaces theirs */
  clash: boolean;
}

/** A field's name for people: the form's label, else the key made readable (`start_date` -> Start date). */
export const labelOf = (key: string, labels: Record<string, string> = {}) =>
  labels[key] ?? (key.charAt(0).toUpperCase() + key.slice(1)).replace(/_/g, " ");

/** A value as the dialog shows it. */
export function shown(v: unknown): string {
  if (v === null || v === undefined || v === "") return "(empty)";
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (typeof v === "object" && "name" in v) return String((v as { name: unknown }).name ?? "(empty)");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Every field that someone else changed, or that the user changed and now differs from theirs. */
export function conflictRows(base: Values, mine: Values, theirs: Values, labels?: Record<string, string>) {
  const rows: ConflictRow[] = [];
  for (const key of Object.keys(mine)) {
    const theyChanged = !same(base[key], theirs[key]);
    const iChanged = !same(base[key], mine[key]);
    if (!theyChanged && !iChanged) continue;
    if (same(mine[key], theirs[key])) continue;
    rows.push({
      key,
      label: labelOf(key, labels),
      yours: shown(mine[key]),
      theirs: shown(theirs[key]),
      clash: theyChanged && iChanged,
    });
  }
  return rows;
}

/** Whether someone else changed any field this form shows (if not, the save can go again at once). */
export const theyChangedAny = (base: Values, theirs: Values) =>
  Object.keys(base).some((k) => !same(base[k], theirs[k]));
