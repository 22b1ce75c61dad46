/** The check-in state a sales row shows: every unit back in or sold, or not yet. */
export const HANDLED = "Fully Checked-In!";
export const NOT_HANDLED = "Item not fully checked in or sold";
