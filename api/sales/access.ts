import type { CurrentUser } from "../lib/context.ts";
import { AppError } from "../lib/errors.ts";
import { requireGrant } from "../lib/permissions.ts";

/**
 * Sales & Inventory is the owner company's own back office: its staff read everything in it;
 * users of customer and operator companies have no access.
 */
export function requireSalesReader(user: CurrentUser): void {
  if (!user.company.isOwner) {
    throw new AppError("forbidden", "Sales & Inventory is for the company's own staff.");
  }
}

/** Edits, deletes, transfers and uploads: sales-admin only. */
export function requireSalesAdmin(user: CurrentUser): void {
  requireSalesReader(user);
  requireGrant(user, "sales.admin");
}
