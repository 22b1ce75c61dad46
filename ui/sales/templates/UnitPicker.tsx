import { ComboBox } from "../../primitives/ComboBox.tsx";
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
 * The business unit choice of the templates page and form: a ComboBox of every unit ('!ALL'), loaded when
 * it opens and filtered as the user types. A failed load is only logged; `emptyOnError` (the template form)
 * empties the list instead of keeping it, as the spec says.
 */
export function UnitPicker(
  { label = "Business Unit", ...props }: {
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
  return <ComboBox label={label} loadAll={loadAllUnits} noMatchText="No Business Units Found" {...props} />;
}
