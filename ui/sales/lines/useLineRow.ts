import { useEffect, useRef, useState } from "react";
import type { ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import type { InventoryList } from "../../../api/sales/inventory/schemas.ts";
import { newLineRates } from "../../../api/sales/lines/defaults.ts";
import type { TicketFit } from "../../../api/sales/lines/fit.ts";
import { type RowFacts, str } from "./line_values.ts";
import type { Line } from "./types.ts";
import { nameOf, rowOption } from "./row_option.ts";

/** What the picker searches for: the text after the last '| ' (a chosen option's description). */
export function pickerSearch(text: string): string {
  const at = text.lastIndexOf("| ");
  return (at === -1 ? text : text.slice(at + 2)).trim();
}

/** The prices the form fills in for a newly picked row, as strings. */
export interface PickedRates {
  price: string;
  minimum_rate?: string;
  taxes?: { state_tax: string; county_tax: string; city_tax: string };
}

/**
 * The line form's inventory picker: the chosen option, the chosen row's facts (type and available
 * quantity; for an existing line fetched once), the search (rows without a serial number left out),
 * and on a new line the chosen row's rates and the ticket's taxes for a taxable item (`onRates`).
 */
export function useLineRow(opts: {
  ticket: TicketFit & {
    id: number;
    tax: { state_rate: number | null; county_rate: number | null; city_rate: number | null } | null;
  };
  line: Line | null;
  minRate: boolean;
  onRates: (rates: PickedRates) => void;
}) {
  const { ticket, line, minRate } = opts;
  const [inv, setInv] = useState<ComboOption | null>(
    line ? { id: line.inventory_id, name: nameOf(line.sales_inventory) } : null,
  );
  const [facts, setFacts] = useState<RowFacts | null>(
    line ? { type: line.sales_inventory.item.inventory_type, available: null } : null,
  );
  const rows = useRef(new Map<number, InventoryRowOut>());
  const picking = useRef<number | null>(null);
  const onRates = useRef(opts.onRates);
  onRates.current = opts.onRates;

  // An existing line's row: what is available now (the picker's figure).
  useEffect(() => {
    if (!line || ticket.isQuote) return;
    const ac = new AbortController();
    api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: { ids: String(line.inventory_id) },
      signal: ac.signal,
    }).then((r) => {
      const row = r.results[0];
      if (row) {
        setFacts((f) =>
          f && picking.current === null
            ? { type: row.item.inventory_type, available: row.quantity_available }
            : f
        );
      }
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") console.error("inventory lookup failed", e);
    });
    return () => ac.abort();
  }, [line, ticket.isQuote]);

  const load = (text: string, signal: AbortSignal) =>
    api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: { search_multi: pickerSearch(text), ticket_id: line ? undefined : ticket.id },
      signal,
    }).then((r) => {
      const found = r.results.filter((row) => row.serial_number.trim() !== "");
      for (const row of found) rows.current.set(row.id, row);
      return found.map((row) => rowOption(row, ticket));
    });

  /** A new line takes the chosen row's rates (as the server would) and the ticket's taxes if taxable. */
  const prefill = async (row: InventoryRowOut) => {
    try {
      const found = await api<InventoryList>("/api/sales/inventory", {
        query: {
          search_serial_number: row.serial_number,
          search_item_number: row.item.item_number,
          include_hidden: true,
          rowsPerPage: 100,
        },
      });
      const r = found.results.find((x) => x.id === row.id);
      if (!r || picking.current !== row.id) return;
      const tax = r.item.isTaxable ? ticket.tax : null;
      const rates = newLineRates({ ...r, rate: r.item.rate }, minRate);
      onRates.current({
        price: String(rates.price),
        ...(minRate ? { minimum_rate: str(rates.minimum_rate) } : {}),
        ...(tax
          ? {
            taxes: {
              state_tax: str(tax.state_rate),
              county_tax: str(tax.county_rate),
              city_tax: str(tax.city_rate),
            },
          }
          : {}),
      });
    } catch (e) {
      console.error("rate lookup failed", e);
    }
  };

  const pick = (o: ComboOption | null) => {
    setInv(o);
    const row = o ? rows.current.get(o.id) : undefined;
    picking.current = o?.id ?? null;
    if (row) setFacts({ type: row.item.inventory_type, available: row.quantity_available });
    else if (!o) setFacts(null);
    if (row && !line) void prefill(row);
  };

  return { inv, facts, load, pick };
}
