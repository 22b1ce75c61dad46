import { AppError } from "./errors.ts";

/** Role names of the spec's "Roles and permissions". */
export const ROLES = [
  "superuser",
  "user-admin",
  "job-admin",
  "inspector",
  "part-admin",
  "sales-admin",
] as const;
export type Role = (typeof ROLES)[number];

/** Permission options, merged with the role names into one list on the user. */
export const PERMISSIONS = [
  "approval-authority",
  "notify-ready-to-bill",
  "notify-waiting-for-approval",
  "notify-waiting-to-invoice",
  "email-notifications",
  "text-message-notifications",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ALL_GRANTS: readonly string[] = [...ROLES, ...PERMISSIONS];

/** What each role unlocks, mirroring the spec's table; services name the action, not the role. */
export const GRANTS = {
  "companies.edit": ["user-admin", "superuser"],
  "companies.delete": ["superuser"],
  "companies.settings": ["superuser"],
  "users.edit": ["user-admin"],
  "users.delete": ["user-admin"],
  "users.forceReset": ["user-admin"],
  "jobs.edit": ["job-admin"],
  "inspections.enter": ["inspector"],
  "inspections.edit": ["job-admin"],
  "parts.edit": ["part-admin"],
  "sales.admin": ["sales-admin"],
} as const satisfies Record<string, readonly Role[]>;
export type Action = keyof typeof GRANTS;

export interface HasGrants {
  permissions: string[];
}

export function can(user: HasGrants | undefined, action: Action): boolean {
  if (!user) return false;
  return (GRANTS[action] as readonly string[]).some((r) => user.permissions.includes(r));
}

export function requireGrant(user: HasGrants | undefined, action: Action): void {
  if (!can(user, action)) throw new AppError("forbidden", "You do not have permission to do that.");
}
