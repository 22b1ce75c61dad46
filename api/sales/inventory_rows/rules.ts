import type { InventoryRowOut } from "./schemas.ts";

/** How a picker option and a chosen row read: item number, serial number and description. */
export function inventoryLabel(r: Pick<InventoryRowOut, "serial_number" | "item">): string {
  return [r.item.item_number, r.serial_number, r.item.item_description].filter(Boolean).join(" | ");
}
