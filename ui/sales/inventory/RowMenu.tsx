import { useOpenNow } from "../../lib/hooks.ts";
import { Button, Menu, MenuItem, MenuTrigger, Popover } from "react-aria-components";
import { Icon, type IconName } from "../../components/icons.tsx";
import type { RowAction, RowMenuProps } from "./columns.tsx";

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

/** Menu entries that are links, not actions. */
const LINKS = new Set(["sales", "availability"]);

/**
 * A row's actions for sales-admin: Edit, Business Unit Transfer (rows holding stock), View Locations
 * (not for Charge Code), View Sales and Availability (links; no calendar for Charge Code) and Delete.
 */
export function RowMenu({ row, type, hydrated, onAction, openNow }: RowMenuProps & {
  /** it replaces a native button just pressed: take focus, then open (so closing returns focus here) */
  openNow?: boolean;
}) {
  const name = row.serial_number || row.item.item_number;
  const { button, isOpen, setOpen } = useOpenNow(openNow);
  return (
    <MenuTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button ref={button} className="icon-btn" aria-label={`Actions for ${name}`} isDisabled={!hydrated}>
        <Icon name="moreVert" />
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu
          className="listbox"
          onAction={(key) => !LINKS.has(String(key)) && onAction(key as RowAction, row)}
        >
          <Entry id="edit" icon="edit" label="Edit" />
          {row.quantity > 0 && <Entry id="unit" icon="swap" label="Business Unit Transfer" />}
          {type !== "Charge Code" && <Entry id="locations" icon="place" label="View Locations" />}
          <Entry
            id="sales"
            icon="table"
            label="View Sales"
            href={`/sales/data?serial_number=${encodeURIComponent(row.serial_number)}`}
          />
          {type !== "Charge Code" && (
            <Entry
              id="availability"
              icon="event"
              label="Availability"
              href={`/sales/availability?item_id=${row.item.id}&business_unit=${row.business_unit.id}`}
            />
          )}
          <Entry id="delete" icon="delete" label="Delete" />
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
