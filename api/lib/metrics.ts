import { statementCacheStats } from "../../db/statement_cache.ts";
import { checkpointStats } from "../../db/checkpointer.ts";
import { deepReadStats } from "../../db/deep_reads.ts";
import { remoteStats } from "../../db/client.ts";
import { mallocInfo, type TrimStats } from "./malloc_trim.ts";
/**
 * `GET /metrics` in Prometheus text format (version 0.0.4): requests by status class, a latency histogram,
 * requests in progress and waiting for a turn, open tenant databases, writes waiting in the tenants' queues,
 * and the process's memory (resident, JavaScript heap, external). Served only with
 * `Authorization: Bearer $METRICS_TOKEN`; without a configured token the path is 404.
 */

/** Upper bounds of the latency buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Gauges {
  inProgress: number;
  waiting: number;
  tenantsOpen: number;
  writesWaiting: number;
  /** event-loop turns past STALL_LOG_MS, and the longest turn seen (api/lib/stall_watch.ts) */
  stalls: number;
  longestMs: number;
  /** the periodic malloc_trim (api/lib/malloc_trim.ts) */
  trim: TrimStats;
}

export class Metrics {
  private byClass = new Map<string, number>();
  private counts = new Array(BUCKETS.length + 1).fill(0);
  private sum = 0;
  private total = 0;

  /** One answered request. */
  observe(status: number, seconds: number) {
    const cls = `${Math.floor(status / 100)}xx`;
    this.byClass.set(cls, (this.byClass.get(cls) ?? 0) + 1);
    let i = BUCKETS.findIndex((b) => seconds <= b);
    if (i < 0) i = BUCKETS.length;
    this.counts[i]++;
    this.sum += seconds;
    this.total++;
  }

  render(g: Gauges): string {
    const mem = Deno.memoryUsage();
    const lines = [
      "# HELP http_requests_total Requests answered, by status class.",
      "# TYPE http_requests_total counter",
      ...[...this.byClass].sort().map(([cls, n]) => `http_requests_total{status="${cls}"} ${n}`),
      "# HELP http_request_duration_seconds Time from the request to its answer's headers.",
      "# TYPE http_request_duration_seconds histogram",
    ];
    let cumulative = 0;
    for (const [i, b] of BUCKETS.entries()) {
      cumulative += this.counts[i];
      lines.push(`http_request_duration_seconds_bucket{le="${b}"} ${cumulative}`);
    }
    lines.push(
      `http_request_duration_seconds_bucket{le="+Inf"} ${this.total}`,
      `http_request_duration_seconds_sum ${this.sum}`,
      `http_request_duration_seconds_count ${this.total}`,
    );
    const gauge = (name: string, help: string, value: number) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
    gauge("http_requests_in_progress", "Requests being worked on (holding a turn).", g.inProgress);
    gauge("http_requests_waiting", "Requests waiting for a turn (tenant_gate.ts).", g.waiting);
    gauge("tenants_open", "Tenant databases open in this process.", g.tenantsOpen);
    gauge("write_queue_depth", "Writes waiting in the tenants' write queues.", g.writesWaiting);
    lines.push(
      "# HELP event_loop_stalls_total Event-loop turns longer than STALL_LOG_MS (each logged with its requests).",
      "# TYPE event_loop_stalls_total counter",
      `event_loop_stalls_total ${g.stalls}`,
    );
    gauge(
      "event_loop_longest_stall_seconds",
      "The longest event-loop turn seen since start.",
      g.longestMs / 1000,
    );
    lines.push(
      "# HELP malloc_trim_runs_total Times the C allocator's free memory was handed back (MALLOC_TRIM_SECONDS).",
      "# TYPE malloc_trim_runs_total counter",
      `malloc_trim_runs_total ${g.trim.runs}`,
      "# HELP malloc_trim_seconds_total Time spent handing the C allocator's free memory back.",
      "# TYPE malloc_trim_seconds_total counter",
      `malloc_trim_seconds_total ${g.trim.totalMs / 1000}`,
    );
    gauge("malloc_trim_longest_seconds", "The longest malloc_trim since start.", g.trim.longestMs / 1000);
    lines.push(
      "# HELP sqlite_statements_prepared_total Statements prepared (db/statement_cache.ts); a reuse is not counted.",
      "# TYPE sqlite_statements_prepared_total counter",
      `sqlite_statements_prepared_total ${statementCacheStats.prepared}`,
    );
    gauge(
      "sqlite_statements_cached",
      "Prepared statements kept by open connections.",
      statementCacheStats.cached,
    );
    gauge(
      "sqlite_statements_cached_bytes",
      "Estimated bytes of SQLite's heap the kept statements hold (db/statement_cache.ts, decision 043).",
      statementCacheStats.cachedBytes,
    );
    lines.push(
      "# HELP sqlite_connections_recycled_total Connections closed and replaced to free the statements they dropped.",
      "# TYPE sqlite_connections_recycled_total counter",
      `sqlite_connections_recycled_total ${statementCacheStats.recycled}`,
    );
    gauge(
      "sqlite_connections_open",
      "Connections open to local database files (each keeps its statements and a page cache).",
      statementCacheStats.connections,
    );
    const counter = (name: string, help: string, value: number) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`, `${name} ${value}`);
    counter(
      "sqlite_checkpoints_total",
      "WAL checkpoints done by the checkpoint worker (decision 030).",
      checkpointStats.done,
    );
    counter(
      "sqlite_checkpoints_failed_total",
      "Checkpoints that failed (each logged); the WAL is checkpointed on a later try.",
      checkpointStats.failed,
    );
    counter(
      "sqlite_checkpoint_frames_total",
      "WAL frames copied into database files by the checkpoint worker.",
      checkpointStats.framesCopied,
    );
    counter(
      "deep_reads_total",
      "Pages far down long lists read on the deep-read worker (db/deep_reads.ts).",
      deepReadStats.done,
    );
    counter("deep_reads_failed_total", "Deep reads that failed on the worker.", deepReadStats.failed);
    counter(
      "deep_reads_refused_total",
      "Deep reads refused with 429: too many waiting in all, or of one tenant.",
      deepReadStats.refused,
    );
    counter(
      "libsql_remote_requests_total",
      "HTTP requests to libSQL servers (remote tenants and catalog): each one network round trip.",
      remoteStats.requests,
    );
    const heap = mallocInfo();
    if (heap) {
      gauge("malloc_arena_bytes", "Memory the C allocator took from the system for its arenas.", heap.arena);
      gauge("malloc_mmapped_bytes", "Memory the C allocator mapped directly for large blocks.", heap.mmapped);
      gauge("malloc_in_use_bytes", "Memory allocated with the C allocator and not yet freed.", heap.inUse);
      gauge("malloc_free_bytes", "Memory free inside the C allocator's arenas, kept by it.", heap.free);
    }
    gauge("process_resident_memory_bytes", "Resident memory of the process.", mem.rss);
    gauge("process_heap_used_bytes", "JavaScript heap in use.", mem.heapUsed);
    gauge("process_heap_total_bytes", "JavaScript heap reserved.", mem.heapTotal);
    gauge("process_external_memory_bytes", "Memory of objects outside the JavaScript heap.", mem.external);
    return lines.join("\n") + "\n";
  }
}
