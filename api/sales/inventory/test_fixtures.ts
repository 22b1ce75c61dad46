// Shared set-up of the inventory and audit tests: units, items and rows made with the factories.
import { asc, eq } from "drizzle-orm";
import type { Client, InStatement } from "@libsql/client";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { tenantDrizzle } from "../../../db/client.ts";
import type { Ctx } from "../../lib/context.ts";
import { makeCategory, makeInventory, makeItem } from "../../../db/factories.ts";
import {
  type AuditRow,
  inventory,
  inventory_audit,
  type InventoryRow,
  type NewInventoryRow,
  type NewItem,
} from "../../../db/schema/mod.ts";

/** A business unit with these yard locations. */
export const makeUnit = (env: TestEnv, locations: string[] = [], name?: string) =>
  makeCategory(env.tenant.db, { model: "Business Unit", custom: { locations }, ...(name ? { name } : {}) });

export const makeInventoryCategory = (env: TestEnv, name?: string) =>
  makeCategory(env.tenant.db, { model: "Inventory Category", ...(name ? { name } : {}) });

export const makeItemOf = (
  env: TestEnv,
  inventory_type: NewItem["inventory_type"],
  over: Partial<NewItem> = {},
) => makeItem(env.tenant.db, { inventory_type, ...over });

export const makeRow = (env: TestEnv, over: Partial<NewInventoryRow> = {}) =>
  makeInventory(env.tenant.db, over);

/** The stored row, straight from the database. */
export async function stored(env: TestEnv, id: number): Promise<InventoryRow | undefined> {
  return await env.tenant.db.select().from(inventory).where(eq(inventory.id, id)).get();
}

/** The audit rows of one inventory row, oldest first. */
export function auditOf(env: TestEnv, inventoryId: number): Promise<AuditRow[]> {
  return env.tenant.db.select().from(inventory_audit).where(eq(inventory_audit.inventory_id, inventoryId))
    .orderBy(asc(inventory_audit.id));
}

/** POST/PUT/PATCH with a JSON body, expecting `status` (200 unless given). */
export function send(
  env: TestEnv,
  token: string,
  method: string,
  path: string,
  json: unknown,
  status = 200,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  return env.json(path, { token, method, json, status });
}

/** A user of the owner company with exactly these roles, and their token. */
export async function tokenWith(env: TestEnv, permissions: string[], company_id = 1): Promise<string> {
  return (await env.userWithToken({ permissions, company_id })).token;
}

/**
 * A service context over the tenant whose client records each statement it runs. It is no local file's client
 * (its prototype is not the file client's), so a deep page's read runs through it too, not on the deep-read
 * worker (db/deep_reads.ts), and is recorded.
 */
export function recordingCtx(env: TestEnv, user: Ctx["user"], log: InStatement[]): Ctx {
  const client = new Proxy(env.tenant.client, {
    getPrototypeOf: () => Object.prototype,
    get(target, prop) {
      if (prop === "execute") {
        return (s: InStatement) => {
          log.push(s);
          return target.execute(s);
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as Client;
  return { tdb: env.tenant, db: tenantDrizzle(client), user, config: {} as Ctx["config"] };
}

export interface PlanLine {
  id: number;
  parent: number;
  detail: string;
}

export async function planOf(env: TestEnv, s: InStatement): Promise<PlanLine[]> {
  const q = typeof s === "string" ? { sql: s, args: [] } : s;
  const r = await env.tenant.client.execute({ sql: `explain query plan ${q.sql}`, args: q.args as never });
  return r.rows.map((row) => ({
    id: Number(row.id),
    parent: Number(row.parent),
    detail: String(row.detail),
  }));
}
