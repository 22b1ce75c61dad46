// Shared set-up of the ticket and rejection tests.
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeInventory, makeItem } from "../../../db/factories.ts";

/** A customer, a sales rep and a sales user's token (approval-authority when asked). */
export async function parties(env: TestEnv, permissions: string[] = []) {
  const customer = await makeCompany(env.tenant.db, { name: "Permian Energy" });
  const { user: rep, token } = await env.userWithToken({ name: "Rita Rep", isSalesRep: true, permissions });
  return { customer, rep, token };
}

// deno-lint-ignore no-explicit-any
export const call = (
  env: TestEnv,
  token: string,
  method: string,
  path: string,
  json?: unknown,
  status = 200,
): Promise<any> => env.json(path, { token, method, json, status });

/** A stock row of an item of this type with `quantity` on hand. */
export async function stockOf(
  env: TestEnv,
  type: "Itemized" | "Serialized" | "Charge Code",
  quantity = 10,
  rate = 100,
) {
  const item = await makeItem(env.tenant.db, { inventory_type: type, rate });
  return await makeInventory(env.tenant.db, { item_id: item.id, quantity });
}
