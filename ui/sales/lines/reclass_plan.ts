import type { ComboOption } from "../../primitives/ComboBox.tsx";
import { checkedInMessage, NO_CHECK_IN, NONE_LEFT } from "../../../api/sales/lines/reclass_schemas.ts";
import { logFigures } from "./lines.ts";
import type { Line } from "./types.ts";

const REQUIRED = "Required";
const POSITIVE = "Must be positive";
const WHOLE = "Must be a whole number";

/** The quantity's message: blank is "not reclassed"; else positive, whole and within what is left. */
export function reclassQuantityProblem(text: string, left: number): string | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) return POSITIVE;
  if (!Number.isInteger(n)) return WHOLE;
  return n > left ? checkedInMessage(left) : undefined;
}

/** What the user entered on one line's row: the quantity, the chosen target and the date typed. */
export interface RowState {
  quantity: string;
  to: ComboOption | null;
  date: string;
}
export const EMPTY: RowState = { quantity: "", to: null, date: "" };

/** One line's row of the dialog: what is left to reclass, why it is disabled, what it asks for. */
export interface PlanRow {
  line: Line;
  left: number;
  /** the spec's hint when nothing can be reclassed (nothing checked in, nothing left) */
  hint: string | undefined;
  r: RowState;
  /** a quantity was given: the row is sent */
  given: boolean;
  issues: { quantity: string | undefined; to: string | undefined };
}

/** Every row of the dialog from the lines (not charge codes) and what was entered on each. */
export function planReclass(
  rows: Line[],
  state: Record<number, RowState>,
  empty: RowState = EMPTY,
): PlanRow[] {
  return rows.map((line) => {
    const { checkedIn, reclassed } = logFigures(line);
    const left = checkedIn - reclassed;
    const hint = checkedIn <= 0 ? NO_CHECK_IN : left <= 0 ? NONE_LEFT : undefined;
    const r = state[line.id] ?? empty;
    const quantity = hint ? undefined : reclassQuantityProblem(r.quantity, left);
    const given = !hint && r.quantity.trim() !== "";
    const to = given && !r.to ? REQUIRED : undefined;
    return { line, left, hint, r, given, issues: { quantity, to } };
  });
}
