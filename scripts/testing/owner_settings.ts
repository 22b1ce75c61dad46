import { eq } from "drizzle-orm";
import { companies } from "../../db/schema/mod.ts";
import type { TestEnv } from "./harness.ts";

type Settings = Record<string, unknown>;

/**
 * Saves the owner company's settings through the company form's call (`PATCH /api/companies`), as a
 * superuser would: `change` gets the saved settings and answers the new ones. Answers the call's body.
 */
export async function saveOwnerSettings(
  env: TestEnv,
  token: string,
  change: (settings: Settings) => Settings,
  status = 200,
) {
  const owner = (await env.tenant.db.select().from(companies).where(eq(companies.isOwner, true)).get())!;
  return await env.json("/api/companies", {
    method: "PATCH",
    token,
    json: {
      id: owner.id,
      name: owner.name,
      company_type: owner.company_type,
      settings: change(owner.settings),
    },
    status,
  });
}

/** `Sales.<key>` of the owner's settings set to `value`, the rest kept. */
export const withSalesSetting = (key: string, value: unknown) => (settings: Settings): Settings => ({
  ...settings,
  Sales: { ...((settings.Sales ?? {}) as Settings), [key]: value },
});
