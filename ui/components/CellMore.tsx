import type { ReactNode } from "react";

/**
 * A hidden column's value, as a line under a column that stays, in a server-rendered table that narrows
 * without an island (the serial history, the availability bookings): the table has the class `narrowing`,
 * the hidden column's header and cells `col-more`. Shown only on a narrow table (styles.css, "Narrow
 * tables"), as "header: value" the way a DataTable's details list them.
 */
export function CellMore({ label, children }: { label?: string; children: ReactNode }) {
  return <span className="cell-more">{label && `${label}: `}{children}</span>;
}
