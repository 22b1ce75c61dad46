// Value lists shared by the drizzle schema and the browser's forms. No drizzle import here: islands
// import this file, and it must not pull the database layer into their bundles.
export const COMPANY_TYPES = ["customer_company", "inspection_company", "operator_company"] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

export const ACCOUNT_TYPES = ["Company-Admin", "Job-Admin", "Data-Entry", "General", "Admin"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const BAND_COLORS = ["Red", "Green", "Purple", "Yellow", "Blue"] as const;
export type BandColor = (typeof BAND_COLORS)[number];

export const MPI_RESULTS = ["Pass", "Fail", "Not Required"] as const;
export type MpiResult = (typeof MPI_RESULTS)[number];

/** The kinds of rows in `categories` (the spec's `model`). */
export const CATEGORY_MODELS = [
  "Inventory Category",
  "Item Category",
  "Business Unit",
  "Product Line",
] as const;
export type CategoryModel = (typeof CATEGORY_MODELS)[number];

export const INVENTORY_TYPES = ["Serialized", "Itemized", "Charge Code"] as const;
export type InventoryType = (typeof INVENTORY_TYPES)[number];

export const INVENTORY_STATUSES = ["Available", "Out", "Repair"] as const;
export type InventoryStatus = (typeof INVENTORY_STATUSES)[number];

/** Defaults; company settings may offer others. */
export const ITEM_TYPES = ["Sales", "Rental"] as const;
export const BILLING_UNITS = ["Per Day", "Per Hour", "Per Item"] as const;

/** Quantity limits of the spec: a serialized row holds at most one. */
export const MAX_QUANTITY = 100_000_000;
export const maxQuantity = (type: string) => (type === "Serialized" ? 1 : MAX_QUANTITY);

/** Stored ticket statuses (CLONEQUOTE is an action, never stored). */
export const TICKET_STATUSES = ["OPEN", "RFB", "RFA", "APP", "QUOTE"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The spec's names of the ticket statuses (the ticket screens, the serial history). */
export const TICKET_STATUS_LABELS: Record<string, string> = {
  OPEN: "Open",
  RFB: "Ready To Bill",
  RFA: "Request For Approval",
  APP: "Approved",
  QUOTE: "Quote",
};

/** How each company type reads in lists and forms. */
export const COMPANY_TYPE_LABELS: Record<(typeof COMPANY_TYPES)[number], string> = {
  customer_company: "Customer",
  inspection_company: "Owner",
  operator_company: "Operator",
};
