import type { Client } from "@libsql/client";
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openClient } from "../../db/client.ts";
/**
 * Line saves: 10 connections POSTing ticket lines (`POST /api/sales/sales`) to one tenant, the large
 * sales tenant, each connection on its own open ticket, for a fixed time. Lines are charge codes of the
 * ticket's business unit, which hold no stock, so no save is refused for want of it. Durability is
 * checked as far as a benchmark can: every acknowledged line is in the file once the server has stopped
 * (each save is answered after the WAL's fdatasync, decision 030). The lines are deleted again afterwards, so the
 * cached tenant stays as built.
 */
import {
  bearer,
  CACHE,
  DATA_DIR,
  load,
  login,
  ms,
  type Options,
  SALES,
  type Section,
  Server,
  stats,
  tenantFile,
} from "./lib.ts";

/**
 * Where the rows a run adds begin, kept until its clean-up is done: a run cut off before it (the machine
 * stopped, Ctrl-C) would otherwise leave thousands of lines on the newest open tickets, which page 1 of the
 * ticket list and the ticket screen of the next runs then read (seen: page 1 at 14 ms, the screen at 3 s).
 */
const PENDING = join(CACHE, "line_saves_pending.json");

type Marks = { sales: number; audit: number; log: number };

async function removeAfter(raw: Client, marks: Marks) {
  await raw.execute({ sql: "delete from inventory_log where id > ?", args: [marks.log] });
  await raw.execute({ sql: "delete from inventory_audit where id > ?", args: [marks.audit] });
  await raw.execute({ sql: "delete from sales where id > ?", args: [marks.sales] });
}

/** Removes what a cut-off run of line saves left in the sales tenant (run before any measure). */
export async function cleanUpLineSaves(log: (s: string) => void) {
  if (!existsSync(PENDING)) return;
  const marks = JSON.parse(readFileSync(PENDING, "utf8")) as Marks;
  const raw = await openClient("file:" + tenantFile(DATA_DIR, SALES.slug));
  try {
    const left = Number(
      (await raw.execute({ sql: "select count(*) as n from sales where id > ?", args: [marks.sales] }))
        .rows[0].n,
    );
    log(`removing what a cut-off line-saves run left: ${left} lines`);
    await removeAfter(raw, marks);
  } finally {
    raw.close();
  }
  unlinkSync(PENDING);
}

export async function benchLineSaves(opts: Options, log: (s: string) => void): Promise<Section> {
  const durationMs = opts.quick ? 3000 : 10_000;
  const file = tenantFile(DATA_DIR, SALES.slug);
  const raw = await openClient("file:" + file);
  const maxId = async (table: string) =>
    Number((await raw.execute(`select coalesce(max(id), 0) as n from ${table}`)).rows[0].n);
  const pairs = (await raw.execute(`
    select t.id as ticket_id, min(i.id) as inventory_id
    from tickets t
    join inventory i on i.business_unit_id = t.business_unit_id
    join items it on it.id = i.item_id and it.inventory_type = 'Charge Code'
    where t.status = 'OPEN' and t.is_quote = 0
    group by t.id order by t.id desc limit 10`)).rows;
  const before: Marks = {
    sales: await maxId("sales"),
    audit: await maxId("inventory_audit"),
    log: await maxId("inventory_log"),
  };
  writeFileSync(PENDING, JSON.stringify(before));
  const server = new Server(DATA_DIR);
  let acked = 0;
  let found = 0;
  try {
    await server.start();
    log("line saves");
    const base = server.url(SALES.host);
    const token = await login(base, SALES.email);
    const headers = { ...bearer(token), "content-type": "application/json" };
    const requests = pairs.map((p) => ({
      url: `${base}/api/sales/sales`,
      method: "POST",
      headers,
      body: JSON.stringify({
        ticket_id: Number(p.ticket_id),
        inventory_id: Number(p.inventory_id),
        quantity: 1,
      }),
    }));
    if (requests.length < 10) {
      throw new Error("the sales tenant has fewer than 10 open tickets with charge codes");
    }
    const r = await load({ requests, concurrency: 10, durationMs, warmup: 1 });
    acked = r.ok;
    const rate = r.ok / (r.elapsedMs / 1000);
    await server.stop();
    found = (await maxId("sales")) > before.sales
      ? Number(
        (await raw.execute({ sql: "select count(*) as n from sales where id > ?", args: [before.sales] }))
          .rows[0].n,
      )
      : 0;
    const st = stats(r.latencies);
    // The warm-up saves (one per connection) are acknowledged too, but not counted in `ok`.
    const expected = acked + requests.length;
    return {
      title: "Line saves (one tenant, 10 connections)",
      rows: [
        {
          measure: "ticket line saves, POST /api/sales/sales",
          figure: `${rate.toFixed(0)} saves/s (p50 ${ms(st.p50)}, p95 ${ms(st.p95)})`,
          budget: ">= 1,000/s",
          pass: rate >= 1000 && !r.errors,
          note: r.errors ? `${r.errors} errors: ${r.firstError} ${JSON.stringify(r.statuses)}` : undefined,
        },
        {
          measure: "acknowledged saves in the file after the server stopped",
          figure: `${found} of ${expected}`,
          budget: "all (durable)",
          pass: found >= expected,
        },
      ],
      notes: [
        `${
          (durationMs / 1000).toFixed(0)
        } s at 10 connections, each on its own open ticket of the large sales tenant, ` +
        `a charge-code line each time; the lines (and their audit and log rows) are deleted afterwards`,
      ],
    };
  } finally {
    await server.stop();
    await removeAfter(raw, before);
    unlinkSync(PENDING);
    raw.close();
  }
}
