/** The check-in state a sales row shows: every unit back in or sold, or not yet. */
export const HANDLED = "Fully Checked-In!";
export const NOT_HANDLED = "Item not fully checked in or sold";
/**
 * An expendable line before its invoice is approved: handled (it need not come back, so the ticket may go
 * for approval) but still holding its stock, which approving the invoice uses up (decision 039). It is
 * not shown as checked in: a line shown as checked in holds nothing.
 */
export const EXPENDABLE_HELD = "Expendable: leaves stock when the invoice is approved";
/** Handled statuses (the Request Approval gate passes): checked in or sold, or an expendable still held. */
export const isHandledStatus = (status: string) => status !== NOT_HANDLED;
