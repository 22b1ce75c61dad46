/**
 * `npm run bench` / `deno task bench` (issue 10): builds the large tenants once (cached in .cache/bench),
 * then measures each figure of the performance budgets, with its floor, in one run; prints PASS/FAIL and
 * writes docs/performance.md with the machine it ran on. CI does not run it.
 *
 *   --only lists,lists_remote,fixed_cost,xlsx,pages,line_saves,tenants_idle   some measures only
 *   --quick        fewer iterations (development; figures are rougher)
 *   --no-write     print only, leave docs/performance.md alone (the default with --only; --write forces it)
 *   --load-note "..."  what else the machine was doing, for the report
 *   --report       rewrite docs/performance.md from the last full run's figures (.cache/bench/results.json),
 *                  e.g. after editing the causes in causes.ts; measures nothing
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import {
  CACHE,
  cli,
  DATA_DIR,
  DENO,
  type Options,
  parseFlags,
  PASSWORD,
  PT,
  ROOT,
  SALES,
  type Section,
  stopAll,
  tenantFile,
  verdict,
} from "./lib.ts";
import { benchLists } from "./lists.ts";
import { benchFixedCost } from "./fixed_cost.ts";
import { benchXlsx } from "./xlsx.ts";
import { benchPages } from "./pages.ts";
import { benchLineSaves, cleanUpLineSaves } from "./line_saves.ts";
import { benchTenantsIdle, provisionIdle } from "./tenants_idle.ts";
import { benchListsRemote } from "./lists_remote.ts";
import { seedSalesLarge } from "./seed_sales_large.ts";
import { causeOf } from "./causes.ts";
import { calibrate, speedText } from "./calibrate.ts";

const MEASURES: [string, (o: Options, log: (s: string) => void) => Promise<Section>][] = [
  ["lists", benchLists],
  ["lists_remote", benchListsRemote],
  ["fixed_cost", benchFixedCost],
  ["xlsx", benchXlsx],
  ["pages", benchPages],
  ["line_saves", benchLineSaves],
  ["tenants_idle", benchTenantsIdle],
];

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** The two large tenants in .cache/bench/data, built on first run and kept. */
async function buildData() {
  if (!existsSync(join(DATA_DIR, "catalog.db"))) {
    for (const [t, name] of [[PT, "Bench Pressure Testing"], [SALES, "Bench Sales"]] as const) {
      log(`creating tenant ${t.slug}`);
      await cli(DATA_DIR, [
        "create",
        t.slug,
        "--name",
        name,
        "--host",
        `${t.host},${t.slug}.bench.test`,
        "--admin-email",
        t.email,
        "--admin-password",
        PASSWORD,
      ]);
    }
  }
  const count = async (slug: string, table: string) => {
    const { openClient } = await import("../../db/client.ts");
    const c = await openClient("file:" + tenantFile(DATA_DIR, slug));
    try {
      return Number((await c.execute(`select count(*) as n from ${table}`)).rows[0].n);
    } finally {
      c.close();
    }
  };
  if (await count(PT.slug, "inspections") < 100_000) {
    log("seeding the large PT tenant (seed-demo --size large)");
    await cli(DATA_DIR, ["seed-demo", PT.slug, "--size", "large"]);
  }
  if (await count(SALES.slug, "tickets") < 50_000) {
    if (await count(SALES.slug, "items") === 0) {
      log("seeding the sales tenant's reference data (seed-demo --size small)");
      await cli(DATA_DIR, ["seed-demo", SALES.slug, "--size", "small"]);
    }
    log("bulk-loading the large sales tenant");
    await seedSalesLarge(tenantFile(DATA_DIR, SALES.slug), log);
  }
}

function sh(cmd: string, args: string[]): string {
  try {
    const out = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).outputSync();
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "?";
  }
}

function machine(loadNote: string | undefined) {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? "?";
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    nproc: sh("nproc", []),
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    cpu: model,
    kernel: sh("uname", ["-sr"]),
    commit: sh("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"]) +
      // The report itself (rewritten by every run) is not a change the server runs.
      (sh("git", [
          "-C",
          ROOT,
          "status",
          "--porcelain",
          "--untracked-files=no",
          "--",
          ".",
          ":!docs/performance.md",
        ])
        ? " plus uncommitted changes in the working tree (the server ran the working tree)"
        : ""),
    deno: sh(DENO, ["--version"]).split("\n")[0],
    load,
    loadNote: loadNote ?? "",
    /** calibrate.ts's fixed work, timed at the start and the end of the run */
    speed: "",
  };
}

/** The report as `deno fmt` leaves it: CI checks the formatting of every file, docs included. */
function writeReport(file: string, text: string) {
  writeFileSync(file, text);
  const out = new Deno.Command(DENO, { args: ["fmt", file], cwd: ROOT, stdout: "piped", stderr: "piped" })
    .outputSync();
  if (out.code !== 0) console.error(`deno fmt ${file}: ${new TextDecoder().decode(out.stderr)}`);
}

const cell = (s: string | undefined) => (s ?? "").replaceAll("|", "\\|");

function markdown(
  sections: Section[],
  m: ReturnType<typeof machine>,
  loadAfter: string,
  opts: Options,
): string {
  const pass = sections.flatMap((s) => s.rows).filter((r) => r.pass === true).length;
  const fail = sections.flatMap((s) => s.rows).filter((r) => r.pass === false).length;
  const lines = [
    "# Performance",
    "",
    "Figures of the performance budgets (issue 10), written by `npm run bench` (`scripts/bench/`). Each",
    "figure is measured in the same run as its floor: for a list, the SQL the server runs for that call,",
    "captured from the list's own service and replayed straight on the tenant file through the same driver",
    "(db/sqlite_client.ts);",
    "for the fixed cost, a bare Hono handler served by Deno.serve. Budgets are never loosened: a FAIL",
    "stays until the code meets it, with its likely cause noted.",
    "",
    "## Machine and run",
    "",
    `- Date: ${m.date}${opts.quick ? " (--quick: fewer iterations)" : ""}`,
    `- CPU: ${m.cpu}, ${m.nproc} cores (nproc); memory ${m.memory}`,
    `- Kernel: ${m.kernel}; ${m.deno}`,
    `- Commit: ${m.commit}`,
    `- Load average (1, 5, 15 min) at start: ${m.load}; at end: ${loadAfter}`,
    ...(m.speed ? [`- Machine speed (scripts/bench/calibrate.ts, lower is faster): ${m.speed}`] : []),
    ...(m.loadNote ? [`- Load: ${m.loadNote}`] : []),
    `- Result: ${pass} PASS, ${fail} FAIL`,
    "",
    "## Rerun",
    "",
    "```sh",
    "npm run bench                       # or: deno task bench",
    "npm run bench -- --only lists,xlsx  # some measures: lists, lists_remote, fixed_cost, xlsx, pages, line_saves, tenants_idle",
    "npm run bench -- --quick --no-write # fewer iterations, print only",
    "```",
    "",
    "How to read the figures:",
    "",
    "- p50/p95 are over one connection's requests in turn (a warm-up first); req/s over 10 keep-alive",
    "  connections. A slow call is sampled at least 3 times and then for at most 5 s, so multi-second figures",
    "  rest on few samples.",
    "- A list's floor replays every statement of one call of its service, the count included. Where the",
    "  server caches totals (`cachedTotal` in db/tenants.ts) a repeated call skips the count, so the figure can",
    "  come out below its floor.",
    "- The bench process and the server share the machine's cores, so a busy machine slows both the figures",
    "  and the floors; the load average is recorded above.",
    "- The machine's speed itself varies between sessions (a virtual machine; the same commit's figures have",
    "  differed by half): the machine speed line times the same fixed work at the run's start and end, so two",
    "  runs can be compared. Budgets are judged on the raw figures all the same.",
    "- The slow link is Chromium's own throttling (CDP `Network.emulateNetworkConditions`): 400 ms is added",
    "  per request, and bytes flow at 400 kbit/s.",
    "- Bulk sales lines hold no stock (`quantity_held` 0, as if checked in) and have no inventory log rows;",
    "  the lists read them like any other line.",
    "",
    "The first run builds the data in `.cache/bench/` (gitignored) and keeps it: the large PT tenant",
    "(`seed-demo --size large`: 100,000 inspections over 5,000 jobs), the large sales tenant",
    "(`seed-demo --size small`, then `scripts/bench/seed_sales_large.ts`: 50,000 tickets, 300,000 lines,",
    "100,000 inventory rows, 500,000 audit rows) and 1,000 small tenants for the idle measure. Delete",
    "`.cache/bench/` to rebuild. The server runs as a child process with `DEMO_TENANT=false`",
    "`LOG_REQUESTS=false`; load comes from a worker of the bench process, one keep-alive connection per",
    "simulated client. Needs Chromium at `/usr/bin/chromium` (or `CHROMIUM_PATH`) for the page timings.",
    "",
  ];
  for (const s of sections) {
    lines.push(
      `## ${s.title}`,
      "",
      "| Measure | Figure | Floor | Budget | Result | Note |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const r of s.rows) {
      const cause = r.pass === false ? causeOf(r.measure) : undefined;
      if (cause) r.note = [r.note, `likely cause: ${cause}`].filter(Boolean).join("; ");
      lines.push(
        `| ${cell(r.measure)} | ${cell(r.figure)} | ${cell(r.floor ?? "")} | ${cell(r.budget)} | ${
          verdict(r.pass)
        } | ${cell(r.note)} |`,
      );
    }
    if (s.notes.length) lines.push("", ...s.notes.map((n) => `- ${n}`));
    lines.push("");
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const flags = parseFlags(Deno.args);
  const opts: Options = {
    quick: flags.has("quick"),
    only: flags.get("only") ? new Set(flags.get("only")!.split(",").map((s) => s.trim())) : undefined,
  };
  const unknown = [...(opts.only ?? [])].filter((o) => !MEASURES.some(([n]) => n === o));
  if (unknown.length) {
    console.error(`unknown measure ${unknown.join(", ")}; one of ${MEASURES.map(([n]) => n).join(", ")}`);
    Deno.exit(2);
  }
  const RESULTS = join(CACHE, "results.json");
  if (flags.has("report")) {
    const saved = JSON.parse(readFileSync(RESULTS, "utf8"));
    writeReport(
      join(ROOT, "docs/performance.md"),
      markdown(saved.sections, saved.machine, saved.loadAfter, saved.opts),
    );
    log("rewrote docs/performance.md from " + RESULTS);
    Deno.exit(0);
  }
  // Ctrl-C: no server of ours left running.
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => stopAll().finally(() => Deno.exit(130)));
  }
  const m = machine(flags.get("load-note"));
  log(`bench: cache ${CACHE}`);
  await buildData();
  await cleanUpLineSaves(log);
  const speedBefore = calibrate(tenantFile(DATA_DIR, PT.slug));
  log(`machine speed: ${speedText(speedBefore)}`);
  if (!opts.only || opts.only.has("tenants_idle")) await provisionIdle(log);
  const sections: Section[] = [];
  for (const [name, run] of MEASURES) {
    if (opts.only && !opts.only.has(name)) continue;
    try {
      sections.push(await run(opts, log));
    } catch (e) {
      log(`${name} failed: ${e instanceof Error ? e.stack : e}`);
      sections.push({
        title: name,
        rows: [{ measure: name, figure: "did not complete", budget: "-", pass: false }],
        notes: [`error: ${String(e instanceof Error ? e.message : e).split("\n")[0]}`],
      });
    }
  }
  for (const s of sections) {
    console.log(`\n${s.title}`);
    for (const r of s.rows) {
      console.log(
        `  ${verdict(r.pass).padEnd(4)}  ${r.measure}: ${r.figure}` + (r.floor ? ` | floor ${r.floor}` : "") +
          ` | budget ${r.budget}` + (r.note ? ` | ${r.note}` : ""),
      );
    }
    for (const n of s.notes) console.log(`        - ${n}`);
  }
  const speedAfter = calibrate(tenantFile(DATA_DIR, PT.slug));
  log(`machine speed: ${speedText(speedAfter)}`);
  m.speed = `at start ${speedText(speedBefore)}; at end ${speedText(speedAfter)}`;
  const loadAfter = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  // A partial run (--only) replaces only its own sections of the last full run's report, and only with
  // --write; the machine lines stay those of the full run, and the section says when it was measured.
  if (flags.has("write") || (!flags.has("no-write") && !opts.only)) {
    let report = { sections, machine: m, loadAfter, opts: { ...opts, only: undefined } };
    if (opts.only && existsSync(RESULTS)) {
      const saved = JSON.parse(readFileSync(RESULTS, "utf8"));
      for (const s of sections) {
        s.notes.push(`measured in a later run (${m.date}, load average ${m.load} at its start)`);
        const i = saved.sections.findIndex((o: Section) => o.title === s.title);
        if (i >= 0) saved.sections[i] = s;
        else saved.sections.push(s);
      }
      report = saved;
    }
    writeFileSync(RESULTS, JSON.stringify(report));
    const out = join(ROOT, "docs/performance.md");
    writeReport(out, markdown(report.sections, report.machine, report.loadAfter, report.opts));
    log(`wrote ${out}`);
  }
}
