import type { MouseEvent, ReactNode } from "react";
import { Button, Menu, MenuItem, MenuTrigger, Popover } from "react-aria-components";
import type { DataColumn } from "../../components/DataTable.tsx";
import { Icon, type IconName } from "../../components/icons.tsx";
import { formatNumber } from "../../../lib/format.ts";
import type { InventoryTotals } from "./types.ts";
import type { InventoryRow, LocationRow } from "./types.ts";

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;
const num = (n: number) => formatNumber(n);

/** A row's status (Available, Out, Repair), and a Hidden mark on rows left out of lists by default. */
function StatusCell({ row }: { row: { status: string; hidden: boolean } }) {
  return (
    <span>
      {row.status}
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

/**
 * The serial-number view: Serial Number, Item Number, Item, Business Unit, the four quantities
 * (not for Charge Code), Last Updated by, Status (with Hidden) and, for sales-admin, Actions. Ids the
 * API sorts by are sortable.
 */
export function inventoryColumns(
  type: string,
  actions?: (row: InventoryRow) => ReactNode,
): DataColumn<InventoryRow>[] {
  const all: DataColumn<InventoryRow>[] = [
    { id: "serial_number", header: "Serial Number", className: KEY_START, cell: (r) => r.serial_number },
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
      cell: (r) => <StatusCell row={r} />,
    },
  ];
  const shown = type === "Charge Code" ? all.filter((c) => !QUANTITY_IDS.includes(c.id)) : all;
  return actions
    ? [...shown, { id: "actions", header: "Actions", sortable: false, className: ACTIONS, cell: actions }]
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
  { id: "serial_number", header: "Serial Number", className: KEY_START, cell: (r) => r.serial_number },
  { id: "item_number", header: "Item Number", cell: (r) => clip(r.item.item_number) },
  { id: "item_description", header: "Item", cell: (r) => clip(r.item.item_description) },
  { id: "business_unit", header: "Business Unit", cell: (r) => clip(r.business_unit.name) },
  { id: "location", header: "Location", cell: (r) => clip(r.location) },
  { id: "quantity", header: "Quantity", className: NUM, cell: (r) => num(r.quantity) },
  {
    id: "status",
    header: "Status",
    sortable: false,
    className: KEY_END,
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

const ITEM_STYLE = {
  display: "flex",
  alignItems: "center",
  gap: 10,
  color: "inherit",
  textDecoration: "none",
};

function Entry({ id, icon, label, href }: { id: string; icon: IconName; label: string; href?: string }) {
  return (
    <MenuItem id={id} className="listbox-item" href={href} textValue={label} style={ITEM_STYLE}>
      <Icon name={icon} size={18} />
      {label}
    </MenuItem>
  );
}

/**
 * A row's actions for sales-admin: Edit, Business Unit Transfer (rows holding stock), View Locations
 * (not for Charge Code), View Sales (a link) and Delete.
 */
export function RowMenu({ row, type, hydrated, onAction }: {
  row: InventoryRow;
  type: string;
  hydrated: boolean;
  onAction: (action: RowAction, row: InventoryRow) => void;
}) {
  const name = row.serial_number || row.item.item_number;
  return (
    <MenuTrigger>
      <Button className="icon-btn" aria-label={`Actions for ${name}`} isDisabled={!hydrated}>
        <Icon name="moreVert" />
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu className="listbox" onAction={(key) => key !== "sales" && onAction(key as RowAction, row)}>
          <Entry id="edit" icon="edit" label="Edit" />
          {row.quantity > 0 && <Entry id="unit" icon="swap" label="Business Unit Transfer" />}
          {type !== "Charge Code" && <Entry id="locations" icon="place" label="View Locations" />}
          <Entry
            id="sales"
            icon="table"
            label="View Sales"
            href={`/sales/data?serial_number=${encodeURIComponent(row.serial_number)}`}
          />
          <Entry id="delete" icon="delete" label="Delete" />
        </Menu>
      </Popover>
    </MenuTrigger>
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
