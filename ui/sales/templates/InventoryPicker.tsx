import { useEffect, useState } from "react";
import {
  Button,
  ComboBox as AriaComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from "react-aria-components";
import { Icon } from "../../components/icons.tsx";
import { api } from "../../lib/api.ts";
import { useDebounced } from "../../lib/hooks.ts";
import { type InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { inventoryLabel } from "../../../api/sales/inventory_rows/rules.ts";

/** The template variant of the inventory picker (spec): charge codes and itemized rows of one unit. */
export function loadTemplateRows(unitId: number, text: string, signal: AbortSignal) {
  return api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
    query: {
      inventory_type: "Charge Code,Itemized Inventory",
      business_unit_id: unitId,
      // The spec's picker sends only the text after the last '| ' of an option's label.
      search_multi: text.slice(text.lastIndexOf("| ") + 1).trim(),
    },
    signal,
  }).then((r) => r.results);
}

/**
 * Adds a row to the template: a search over the unit's charge codes and itemized inventory (300 ms
 * after typing stops; opening it shows the first rows). Rows already listed are not offered again. A
 * failed search empties the list (spec: the template form's lookups do).
 */
export function InventoryPicker({ unitId, chosen, onPick }: {
  unitId: number | null;
  chosen: readonly number[];
  onPick: (row: InventoryRowOut) => void;
}) {
  const [input, setInput] = useState("");
  const [isOpen, setOpen] = useState(false);
  const [found, setFound] = useState<InventoryRowOut[]>([]);
  const [loading, setLoading] = useState(false);
  const text = useDebounced(input, 300);

  useEffect(() => {
    if (!unitId || !isOpen || text !== input) return;
    const ac = new AbortController();
    setLoading(true);
    loadTemplateRows(unitId, text, ac.signal).then((rows) => {
      if (!ac.signal.aborted) setFound(rows);
    }).catch((e) => {
      if ((e as Error).name === "AbortError") return;
      console.error("lookup failed", "Inventory", e);
      setFound([]);
    }).finally(() => {
      if (!ac.signal.aborted) setLoading(false);
    });
    return () => ac.abort();
  }, [unitId, isOpen, text, input]);
  useEffect(() => setFound([]), [unitId]);

  const options = found.filter((r) => !chosen.includes(r.id));
  return (
    <AriaComboBox
      className="field combobox"
      items={options}
      inputValue={input}
      onInputChange={setInput}
      value={null}
      onChange={(key) => {
        const picked = options.find((r) => r.id === key);
        // Escape commits no pick: clear the text, or the list would open again on it (ComboBox.tsx).
        if (!picked) return setInput("");
        onPick(picked);
        setInput("");
      }}
      onOpenChange={setOpen}
      isDisabled={!unitId}
      allowsEmptyCollection
      menuTrigger="focus"
    >
      <Label>Add Inventory</Label>
      <div className="combobox-control">
        <Input placeholder="Search by item number, serial number or description" />
        <Button className="combobox-button" aria-label="Show Add Inventory options">
          <Icon name="expand" size={20} />
        </Button>
      </div>
      <Text slot="description" className="field-note">
        {unitId
          ? "Charge codes and itemized inventory of the business unit."
          : "Choose a business unit first."}
      </Text>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <div className="listbox-empty">{loading ? "Searching..." : "No matching inventory"}</div>
          )}
        >
          {(r: InventoryRowOut) => (
            <ListBoxItem className="listbox-item" id={r.id} textValue={inventoryLabel(r)}>
              {inventoryLabel(r)}
              <span className="field-note">{` · ${r.item.inventory_type}`}</span>
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
