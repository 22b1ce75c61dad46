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
