/**
 * Streamed xlsx downloads, each called as the spec writes it (`GET {route}/download` with `page=-1`):
 * - the Sales Data download with the page's default filters (invoices, no quotes), which the large sales
 *   tenant makes exactly the invoices' 200,000 bulk lines (plus the demo's few): the budget's 200,000 rows;
 * - the download of all inspections (100,000 on the large tenant): the issue's own "xlsx of all
 *   inspections" row, held to the same budgets;
 * - the largest lists' own downloads, held to the same budgets: the audit log (500,000 rows, more than
 *   the budget's 200,000) and the serialized inventory (100,000).
 * Each is timed to the last byte, with the server's RSS polled from /proc while it runs and a second
 * connection asking for the cheapest signed-in page all along, to see whether the server keeps answering.
 */
import {
  bearer,
  type BenchTenant,
  DATA_DIR,
  getJson,
  login,
  mb,
  ms,
  type Options,
  PT,
  rssOf,
  SALES,
  type Section,
  Server,
  sleep,
  startLoad,
  stats,
} from "./lib.ts";

interface Download {
  /** prefix of the measures; the Sales Data's has none (its rows are the budget's own) */
  name: string;
  tenant: BenchTenant;
  /** the list's route: `${route}?${filters}` counts the rows, `${route}/download?${filters}&page=-1` downloads them */
  route: string;
  filters: string;
}

const DOWNLOADS: Download[] = [
  { name: "", tenant: SALES, route: "/api/sales/sales", filters: "isInvoice=true&hideQuotes=true" },
  { name: "inspections: ", tenant: PT, route: "/api/pt/inspections", filters: "" },
  { name: "audit: ", tenant: SALES, route: "/api/sales/audit/inventory-rows", filters: "" },
  { name: "inventory: ", tenant: SALES, route: "/api/sales/inventory", filters: "inventory_type=Serialized" },
];

export async function benchXlsx(opts: Options, log: (s: string) => void): Promise<Section> {
  const server = new Server(DATA_DIR);
  await server.start();
  const rows: Section["rows"] = [];
  const notes: string[] = [];
  try {
    for (const d of DOWNLOADS) {
      const r = await measureDownload(server, d, opts, log);
      rows.push(...r.rows);
      notes.push(...r.notes);
    }
  } finally {
    await server.stop();
  }
  return {
    title: "xlsx downloads (Sales Data 200,000 rows; inspections, audit log, inventory)",
    rows,
    notes,
  };
}

async function measureDownload(
  server: Server,
  d: Download,
  opts: Options,
  log: (s: string) => void,
): Promise<Pick<Section, "rows" | "notes">> {
  // Past this the download is cut: the budget is 20 s, and a download that takes many minutes would
  // hold up the rest of the run for nothing more than a larger number.
  const capMs = opts.quick ? 60_000 : 180_000;
  log(`xlsx: download of ${d.route}`);
  const base = server.url(d.tenant.host);
  const token = await login(base, d.tenant.email);
  const amp = d.filters ? "&" : "";
  const total = (await getJson(`${base}${d.route}?${d.filters}${amp}rowsPerPage=10`, token)).total;
  const path = `${d.route}/download?${d.filters}${amp}page=-1`;
  // The probe is the cheapest signed-in request (about a millisecond on an idle server), so its
  // latency during the download is the time the server could not attend to it, not its own work.
  const probes = [{ url: `${base}/api/admin/users/me`, headers: bearer(token) }];
  for (const p of probes) await getJson(p.url, token);
  const before = stats(
    await (async () => {
      const l = startLoad({ requests: probes, concurrency: 1 });
      await sleep(2000);
      return (await l.stop()).latencies;
    })(),
  );
  await sleep(500);
  const rssBefore = rssOf(server.pid).rss;

  let peak = rssBefore;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      try {
        peak = Math.max(peak, rssOf(server.pid).rss);
      } catch { /* process gone */ }
      await sleep(50);
    }
  })();
  const probe = startLoad({ requests: probes, concurrency: 1 });
  const t0 = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), capMs);
  let bytes = 0;
  let firstByte = NaN;
  let status = 0;
  let type = "";
  let cut = false;
  try {
    const res = await fetch(`${base}${path}`, { headers: bearer(token), signal: abort.signal });
    firstByte = performance.now() - t0;
    status = res.status;
    type = `${res.headers.get("content-type")}, ${
      res.headers.get("content-length") ? "length " + res.headers.get("content-length") : "chunked"
    }`;
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
  } catch (e) {
    if (!abort.signal.aborted) throw e;
    cut = true;
  } finally {
    clearTimeout(timer);
  }
  const elapsed = performance.now() - t0;
  const during = await probe.stop();
  polling = false;
  await poll;
  const hwm = rssOf(server.pid).hwm;
  const p = stats(during.latencies);
  const growth = peak - rssBefore;
  const ok = status === 200 && !cut;
  // The server's high-water mark covers its whole life (the downloads before this one too).
  return {
    notes: [
      `GET ${path}: ${total} rows, status ${status || "none"}, ` +
      `${(bytes / 1048576).toFixed(1)} MB received, first byte after ${ms(firstByte)}` +
      (type ? `, ${type}` : "") + (cut ? `; cut after ${capMs / 1000} s` : ""),
      `${d.name}server RSS before ${mb(rssBefore)}, peak polled every 50 ms ${mb(peak)}, VmHWM after ${
        mb(hwm)
      }`,
      `${d.name}probe GET /api/admin/users/me, one connection, one request after another: before the ` +
      `download p95 ${ms(before.p95)}; during it ${p.n} answered, p50 ${ms(p.p50)}, p95 ${ms(p.p95)}, ` +
      `max ${ms(p.max)}, ${during.errors} errors`,
    ],
    rows: [
      {
        measure: `${d.name}xlsx of ${total} rows: time to last byte`,
        figure: cut ? `> ${capMs / 1000} s (cut)` : `${(elapsed / 1000).toFixed(1)} s`,
        budget: "< 20 s",
        pass: ok && elapsed < 20_000,
      },
      {
        measure: `${d.name}server peak RSS growth while streaming`,
        figure: mb(growth),
        floor: `RSS before ${mb(rssBefore)}`,
        budget: "< 150 MB",
        // A cut download's peak is a lower bound: it can fail the budget, never pass it.
        pass: growth >= 150 * 1024 ? false : ok ? true : undefined,
        note: ok ? undefined : `download cut at ${capMs / 1000} s: peak of that part only`,
      },
      {
        measure: `${d.name}other requests while it streams (slowest)`,
        figure: `max ${ms(p.max)} (p95 ${ms(p.p95)}, ${p.n} requests)`,
        floor: `before: p95 ${ms(before.p95)}`,
        budget: "< 50 ms",
        pass: ok && p.n > 0 && p.max < 50 && !during.errors,
      },
    ],
  };
}
