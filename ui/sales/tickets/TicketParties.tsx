import type { Dispatch, SetStateAction } from "react";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";

type Query = Record<string, string | number | boolean | undefined>;

/** A picker's look-up: `search_name` plus fixed parameters, the first 20 by name. */
export const lookup = (path: string, fixed: Query = {}) => (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>(path, { query: { ...fixed, search_name: text, rowsPerPage: 20 }, signal })
    .then((r) => r.results.map((o) => ({ id: o.id, name: o.name })));

const loadCustomers = lookup("/api/companies", { isOwner: false });
const loadReps = lookup("/api/users", { isSalesRep: true });
const loadTaxes = lookup("/api/sales/taxes");
const loadUnits = lookup("/api/sales/categories", { model: "Business Unit" });
const loadProductLines = lookup("/api/sales/categories", { model: "Product Line" });

/** The parties and classifications of a ticket, as the pickers hold them. */
export interface Parties {
  customer: ComboOption | null;
  rep: ComboOption | null;
  tax: ComboOption | null;
  unit: ComboOption | null;
  line: ComboOption | null;
  subLine: ComboOption | null;
}

export const NO_PARTIES: Parties = {
  customer: null,
  rep: null,
  tax: null,
  unit: null,
  line: null,
  subLine: null,
};

/** A record's `{id, name}` (or none) as a picker's choice. */
export const option = (o: { id: number; name?: string | null } | null | undefined): ComboOption | null =>
  o ? { id: o.id, name: o.name ?? "" } : null;

/** The ids the API takes for the parties. */
export function partyIds(p: Parties) {
  return {
    customer_id: p.customer?.id ?? null,
    sales_rep_id: p.rep?.id ?? null,
    tax_id: p.tax?.id ?? null,
    business_unit_id: p.unit?.id ?? null,
    product_line_id: p.line?.id ?? null,
    sub_product_line_id: p.subLine?.id ?? null,
  };
}

/**
 * The ticket form's pickers: Customer and Sales Rep (required), Tax, Business Unit, Product Line and
 * Sub Product Line (of the chosen line; a new line clears it). A choice marks its field touched and
 * clears the server's message about it.
 */
export function PartyFields({ parties, setParties, touch, clear, shown, required = [] }: {
  parties: Parties;
  setParties: Dispatch<SetStateAction<Parties>>;
  touch: (field: string) => void;
  clear: (field: string) => void;
  shown: (field: string) => string | undefined;
  /** the optional fields the company's settings make required (decision 055) */
  required?: readonly string[];
}) {
  const need = (field: string) => ({
    onBlur: () => touch(field),
    isRequired: required.includes(field),
  });
  const pick = (k: keyof Parties, field: string) => (o: ComboOption | null) => {
    setParties((p) => ({
      ...p,
      [k]: o,
      ...(k === "line" && o?.id !== p.line?.id ? { subLine: null } : {}),
    }));
    touch(field);
    clear(field);
  };
  return (
    <>
      <ComboBox
        label="Customer"
        selected={parties.customer}
        onChange={pick("customer", "customer_id")}
        onBlur={() => touch("customer_id")}
        load={loadCustomers}
        error={shown("customer_id")}
        isRequired
      />
      <ComboBox
        label="Sales Rep"
        selected={parties.rep}
        onChange={pick("rep", "sales_rep_id")}
        onBlur={() => touch("sales_rep_id")}
        load={loadReps}
        error={shown("sales_rep_id")}
        isRequired
      />
      <ComboBox
        label="Tax"
        selected={parties.tax}
        onChange={pick("tax", "tax_id")}
        load={loadTaxes}
        error={shown("tax_id")}
        {...need("tax_id")}
      />
      <ComboBox
        label="Business Unit"
        selected={parties.unit}
        onChange={pick("unit", "business_unit_id")}
        load={loadUnits}
        error={shown("business_unit_id")}
        {...need("business_unit_id")}
      />
      <ComboBox
        label="Product Line"
        selected={parties.line}
        onChange={pick("line", "product_line_id")}
        load={loadProductLines}
        error={shown("product_line_id")}
        {...need("product_line_id")}
      />
      <ComboBox
        // A new product line starts a new look-up (its sub lines only).
        key={parties.line?.id ?? "none"}
        label="Sub Product Line"
        selected={parties.subLine}
        onChange={pick("subLine", "sub_product_line_id")}
        load={lookup("/api/sales/sub_categories", { search_parent: parties.line?.id })}
        error={shown("sub_product_line_id")}
        isDisabled={!parties.line}
        {...need("sub_product_line_id")}
      />
    </>
  );
}
