import { lazy, type MouseEvent, type ReactNode, Suspense, useState } from "react";
import type { DataColumn } from "../../components/DataTable.tsx";
import { Icon } from "../../components/icons.tsx";
import { preloadOn } from "../../lib/lazy_dialog.tsx";
import { formatNumber } from "../../../lib/format.ts";
import { AWAITING_INSPECTION } from "../../../lib/return_gate.ts";
import type { InventoryTotals } from "./types.ts";
import type { InventoryRow, LocationRow } from "./types.ts";
import { SerialLink } from "../../components/SerialLink.tsx";

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;
const num = (n: number) => formatNumber(n);

/**
 * A row's status (Available, Out, Repair), "awaiting inspection" on a unit the return gate holds, and a
 * Hidden mark on rows left out of lists by default.
 */
function StatusCell({ row }: { row: { status: string; hidden: boolean; held_for_inspection: boolean } }) {
  return (
    <span>
      {row.status}
      {row.held_for_inspection && (
        <>
          {" "}
          <span className="chip chip-hold" title={AWAITING_INSPECTION}>awaiting inspection</span>
        </>
      )}
      {row.hidden && (
        <>
          {" "}
          <span className="chip">Hidden</span>
        </>
      )}
    </span>
  );
}

/**
 * Column classes of the inventory tables (styles.css, "Inventory tables"): the serial number stays at
 * the left and Status and Actions at the right while the columns between scroll sideways; quantity
 * headers may wrap.
 */
const KEY_START = "inv-key-start";
const KEY_END = "inv-key-end";
const ACTIONS = "inv-key-end inv-actions";
const NUM = "inv-num";

/** The quantity columns the spec hides on the Charge Codes page. */
const QUANTITY_IDS = ["quantity", "quantity_out", "quantity_out_location", "quantity_available"];

/** Rows picked for QR labels (the Serialized page): a checkbox in each row's serial number cell. */
export interface RowSelection {
  selected: ReadonlySet<number>;
  toggle: (row: InventoryRow, on: boolean) => void;
  hydrated: boolean;
}

/** The serial, linked to its history, after its checkbox when rows can be selected. */
function SerialCell({ row, select }: { row: InventoryRow; select?: RowSelection }) {
  if (!select || !row.serial_number) return <SerialLink serial={row.serial_number} />;
  return (
    <span className="select-cell">
      <input
        type="checkbox"
        aria-label={`Select ${row.serial_number}`}
        checked={select.selected.has(row.id)}
        disabled={!select.hydrated}
        onChange={(e) => select.toggle(row, e.target.checked)}
      />
      <SerialLink serial={row.serial_number} />
    </span>
  );
}

/**
 * The serial-number view: Serial Number (with a checkbox when rows can be `select`ed), Item Number, Item,
 * Business Unit, the four quantities (not for Charge Code), Last Updated by, Status (with Hidden) and, for
 * sales-admin, Actions. Ids the API sorts by are sortable.
 */
export function inventoryColumns(
  type: string,
  actions?: (row: InventoryRow) => ReactNode,
  select?: RowSelection,
): DataColumn<InventoryRow>[] {
  const all: DataColumn<InventoryRow>[] = [
    {
      id: "serial_number",
      header: "Serial Number",
      className: KEY_START,
      essential: true,
      cell: (r) => <SerialCell row={r} select={select} />,
    },
    { id: "item_number", header: "Item Number", cell: (r) => clip(r.item.item_number) },
    { id: "item_description", header: "Item", cell: (r) => clip(r.item.item_description) },
    { id: "business_unit", header: "Business Unit", cell: (r) => clip(r.business_unit.name) },
    { id: "quantity", header: "Quantity", className: NUM, cell: (r) => num(r.quantity) },
    {
      id: "quantity_out",
      header: "Quantity Out (Tickets)",
      sortable: false,
      className: NUM,
      cell: (r) => num(r.quantity_out),
    },
    {
      id: "quantity_out_location",
      header: "Quantity Out (Location)",
      sortable: false,
      className: NUM,
      cell: (r) => num(r.quantity_out_location),
    },
    {
      id: "quantity_available",
      header: "Quantity Available",
      className: NUM,
      cell: (r) => num(r.quantity_available),
    },
    {
      id: "updated_by",
      header: "Last Updated by",
      sortable: false,
      cell: (r) => clip(r.updated_by?.name ?? ""),
    },
    {
      id: "status",
      header: "Status",
      sortable: false,
      className: KEY_END,
      essential: true,
      cell: (r) => <StatusCell row={r} />,
    },
  ];
  const shown = type === "Charge Code" ? all.filter((c) => !QUANTITY_IDS.includes(c.id)) : all;
  return actions
    ? [...shown, {
      id: "actions",
      header: "Actions",
      sortable: false,
      className: ACTIONS,
      essential: true,
      cell: actions,
    }]
    : shown;
}

/** The Totals row of the serial view, under its quantity columns. */
export function totalsFooter(t: InventoryTotals): Record<string, ReactNode> {
  return {
    serial_number: "Totals",
    quantity: num(t.quantity),
    quantity_out: num(t.quantity_out),
    quantity_out_location: num(t.quantity_out_location),
    quantity_available: num(t.quantity_available),
  };
}

/** The location view: one row per inventory row and location ('Base' included). */
export const LOCATION_COLUMNS: DataColumn<LocationRow>[] = [
  {
    id: "serial_number",
    header: "Serial Number",
    className: KEY_START,
    essential: true,
    cell: (r) => <SerialLink serial={r.serial_number} />,
  },
  { id: "item_number", header: "Item Number", cell: (r) => clip(r.item.item_number) },
  { id: "item_description", header: "Item", cell: (r) => clip(r.item.item_description) },
  { id: "business_unit", header: "Business Unit", cell: (r) => clip(r.business_unit.name) },
  { id: "location", header: "Location", essential: true, cell: (r) => clip(r.location) },
  { id: "quantity", header: "Quantity", className: NUM, cell: (r) => num(r.quantity) },
  {
    id: "status",
    header: "Status",
    sortable: false,
    className: KEY_END,
    essential: true,
    cell: (r) => <StatusCell row={r} />,
  },
];

/** A row's stock by place: 'Base' (what is available) first, then each named location holding some. */
export function placesOf(r: InventoryRow): { name: string; quantity: number }[] {
  return [{ name: "Base", quantity: r.quantity_available }, ...r.locations];
}

/** The nested per-location table of an expanded row. */
export function LocationsTable({ row, label }: { row: InventoryRow; label: string }) {
  return (
    <table className="data" aria-label={label} style={{ width: "auto", minWidth: 260 }}>
      <thead>
        <tr>
          <th scope="col">Location</th>
          <th scope="col">Quantity</th>
        </tr>
      </thead>
      <tbody>
        {placesOf(row).map((p) => (
          <tr key={p.name}>
            <td>{p.name}</td>
            <td>{num(p.quantity)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export type RowAction = "edit" | "unit" | "locations" | "delete";

export interface RowMenuProps {
  row: InventoryRow;
  type: string;
  hydrated: boolean;
  onAction: (action: RowAction, row: InventoryRow) => void;
}

let loadMenu: Promise<{ default: typeof import("./RowMenu.tsx").RowMenu }> | undefined;
const menuModule = () => loadMenu ??= import("./RowMenu.tsx").then((m) => ({ default: m.RowMenu }));
const AriaRowMenu = lazy(menuModule);

/**
 * A row's actions menu. Its react-aria code loads on demand (decision 022): the button is native until
 * it is first pressed (the code starts loading as the pointer or focus reaches it), then react-aria's
 * menu takes its place, opened, with focus on its button.
 */
export function RowMenu(props: RowMenuProps) {
  const [pressed, setPressed] = useState(false);
  const name = props.row.serial_number || props.row.item.item_number;
  const trigger = (loading: boolean) => (
    <button
      type="button"
      className="icon-btn"
      aria-label={`Actions for ${name}`}
      aria-haspopup="menu"
      aria-busy={loading || undefined}
      disabled={!props.hydrated}
      onClick={() => setPressed(true)}
      {...preloadOn(() => void menuModule())}
    >
      <Icon name="moreVert" />
    </button>
  );
  if (!pressed) return trigger(false);
  return (
    <Suspense fallback={trigger(true)}>
      <AriaRowMenu {...props} openNow />
    </Suspense>
  );
}

/** The serial-number / location view switch: links (they work before hydration) the island takes over. */
export function ViewToggle({ view, href, onChange }: {
  view: "serial" | "location";
  href: (v: "serial" | "location") => string;
  onChange: (v: "serial" | "location") => void;
}) {
  const link = (v: "serial" | "location", label: string) => (
    <a
      className={`btn${view === v ? " btn-primary" : ""}`}
      href={href(v)}
      aria-current={view === v ? "true" : undefined}
      onClick={(e: MouseEvent) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onChange(v);
      }}
    >
      {label}
    </a>
  );
  return (
    <div role="group" aria-label="View" style={{ display: "inline-flex", gap: 4 }}>
      {link("serial", "By Serial Number")}
      {link("location", "By Location")}
    </div>
  );
}
