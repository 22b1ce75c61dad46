import type { Company, User } from "../../../db/schema/mod.ts";
import type { CurrentUser } from "../../lib/context.ts";

/** The one shape a user takes on the wire: no hash, no session version; roles and permissions merged. */
export function presentUser(u: User, company: Company): CurrentUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    active: u.active,
    isSalesRep: u.isSalesRep,
    account_type: u.account_type,
    company_id: u.company_id,
    company: {
      id: company.id,
      name: company.name,
      company_type: company.company_type,
      isOwner: company.isOwner,
      settings: company.settings,
      tax_id: company.tax_id,
      custom: company.custom,
    },
    roles: [...u.permissions],
    permissions: [...u.permissions],
    categories: u.categories,
    categories_bu: u.categories_bu,
    jobs: u.jobs,
    passwordReset: u.passwordReset,
  };
}

/** A user as the users page lists and saves it: the wire shape and its record version (decision 038). */
export type UserRecord = CurrentUser & { version: number };

export function presentUserRecord(u: User, company: Company): UserRecord {
  return { ...presentUser(u, company), version: u.version };
}
