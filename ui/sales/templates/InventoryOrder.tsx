import { type CSSProperties, useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Icon } from "../../components/icons.tsx";
import { type InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { inventoryLabel } from "../../../api/sales/inventory_rows/rules.ts";

type Move = "up" | "down";

const ROW: CSSProperties = {
  display: "grid",
  gridTemplateColumns: "2.5em 1fr auto",
  alignItems: "center",
  gap: 8,
  padding: "2px 4px 2px 8px",
  borderBottom: "1px solid var(--line)",
};

/** `rows` with the one at `i` moved a place up or down. */
export function moved<T>(rows: readonly T[], i: number, dir: Move): T[] {
  const j = dir === "up" ? i - 1 : i + 1;
  if (j < 0 || j >= rows.length) return [...rows];
  const next = [...rows];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}

/**
 * The template's inventory in its order: each row with Move up, Move down and Remove buttons named
 * for the row. After a move the pressed button keeps the focus (or its partner, at either end), so
 * a keyboard user can press it again.
 */
export function InventoryOrder({ rows, onChange, errors }: {
  rows: InventoryRowOut[];
  onChange: (rows: InventoryRowOut[]) => void;
  /** by index in `rows` */
  errors: Record<number, string | undefined>;
}) {
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const [focus, setFocus] = useState<{ id: number; dir: Move } | null>(null);
  useEffect(() => {
    if (!focus) return;
    const own = buttons.current.get(`${focus.id}:${focus.dir}`);
    const other = buttons.current.get(`${focus.id}:${focus.dir === "up" ? "down" : "up"}`);
    (own && !own.disabled ? own : other)?.focus();
    setFocus(null);
  }, [focus, rows]);

  if (!rows.length) {
    return <p className="field-note">No inventory yet: add charge codes and itemized inventory above.</p>;
  }
  const move = (i: number, dir: Move) => {
    onChange(moved(rows, i, dir));
    setFocus({ id: rows[i].id, dir });
  };
  return (
    <ol aria-label="Template inventory" style={{ listStyle: "none", margin: "0 0 12px", padding: 0 }}>
      {rows.map((r, i) => {
        const name = inventoryLabel(r);
        return (
          <li key={r.id} style={ROW}>
            <span className="field-note" aria-hidden="true">{i + 1}.</span>
            <span style={{ minWidth: 0 }}>
              <span className="cell-clip" style={{ maxWidth: "100%" }} title={name}>{name}</span>
              <span className="field-note" style={{ display: "block", fontSize: ".85rem" }}>
                {r.item.inventory_type}
                {r.item.inventory_type === "Charge Code" ? "" : ` · ${r.quantity_available} available`}
              </span>
              {errors[i] && <span className="field-error" style={{ display: "block" }}>{errors[i]}</span>}
            </span>
            <span style={{ display: "flex" }}>
              <Button
                ref={(el) => {
                  buttons.current.set(`${r.id}:up`, el);
                }}
                className="icon-btn"
                aria-label={`Move up ${name}`}
                isDisabled={i === 0}
                onPress={() => move(i, "up")}
              >
                <Icon name="arrowUp" size={20} />
              </Button>
              <Button
                ref={(el) => {
                  buttons.current.set(`${r.id}:down`, el);
                }}
                className="icon-btn"
                aria-label={`Move down ${name}`}
                isDisabled={i === rows.length - 1}
                onPress={() => move(i, "down")}
              >
                <Icon name="arrowDown" size={20} />
              </Button>
              <Button
                className="icon-btn icon-btn-danger"
                aria-label={`Remove ${name}`}
                onPress={() => onChange(rows.filter((_, j) => j !== i))}
              >
                <Icon name="close" size={20} />
              </Button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
