/**
 * Pages: the JavaScript each page loads (its HTML's module scripts and islands, following static imports
 * through dist/, gzip-compressed), whether every one of those files is announced up front (modulepreload
 * or script tag: no import waterfall), whether only that page's islands come along; then Chromium on a
 * slow link (CDP network emulation: 400 kbit/s, 400 ms RTT) timing first rows visible and
 * `body[data-hydrated]` (every island hydrated) cold (empty cache) and warm (same browser, reloaded).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { DATA_DIR, ms, type Options, PASSWORD, PT, type Row, SALES, type Section, Server } from "./lib.ts";
import { DIST, jsOf } from "./page_js.ts";

const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
/** 400 kbit/s each way, 400 ms round trip: the slow link of the budgets. */
const SLOW = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };
const ROWS = "table tbody tr, [role=grid] [role=row]:nth-child(2), [role=rowgroup] [role=row]";

interface PageSpec {
  name: string;
  tenant: typeof PT;
  path: string;
  /** the page shows rows to wait for (a list); false for a form-like page */
  rows: boolean;
}

async function pagesOf(
  base: (t: typeof PT) => string,
  cookie: (t: typeof PT) => string,
): Promise<PageSpec[]> {
  const pages: PageSpec[] = [
    { name: "jobs", tenant: PT, path: "/pt/jobs", rows: true },
    { name: "inspections (PT data)", tenant: PT, path: "/pt/data", rows: true },
    { name: "serialized inventory", tenant: SALES, path: "/sales/serialized-inventory", rows: true },
    { name: "sales data", tenant: SALES, path: "/sales/data", rows: true },
    { name: "inventory audit", tenant: SALES, path: "/sales/inventory-audit", rows: true },
    { name: "tickets (open)", tenant: SALES, path: "/sales/tickets", rows: true },
  ];
  // The ticket screen of an open ticket with lines: the page with the most islands.
  const res = await fetch(`${base(SALES)}/api/sales/tickets?ticketFlowFilter=OPEN&rowsPerPage=10`, {
    headers: { cookie: cookie(SALES) },
  });
  const id = (await res.json()).results?.[0]?.id;
  if (id) pages.push({ name: "ticket detail", tenant: SALES, path: `/sales/tickets/${id}`, rows: true });
  return pages;
}

interface JsReport {
  files: string[];
  gzipBytes: number;
  rawBytes: number;
  notPreloaded: string[];
  foreignIslands: string[];
  islands: string[];
}

/** What a page's HTML makes the browser load, and how it announces it. */
function jsOfPage(html: string, islandFiles: Set<string>): JsReport {
  const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1].replace(/^\//, ""));
  const scripts = attr(/<script[^>]*\ssrc="([^"]+\.js)"/g);
  const preloads = new Set([
    ...attr(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...attr(
      /<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g,
    ),
  ]);
  const islands = attr(/data-src="([^"]+\.js)"/g);
  const { files, gzipBytes: gz, rawBytes: raw } = jsOf([...scripts, ...islands]);
  const announced = new Set([...scripts, ...preloads]);
  const own = new Set(islands);
  return {
    files,
    gzipBytes: gz,
    rawBytes: raw,
    notPreloaded: files.filter((f) => !announced.has(f)),
    foreignIslands: files.filter((f) => islandFiles.has(f) && !own.has(f)),
    islands,
  };
}

const kb = (b: number) => (b / 1024).toFixed(1) + " KB";

export async function benchPages(opts: Options, log: (s: string) => void): Promise<Section> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const manifest: Record<string, { file: string; src?: string; isEntry?: boolean }> = JSON.parse(
    readFileSync(join(DIST, ".vite/manifest.json"), "utf8"),
  );
  const islandFiles = new Set(
    Object.values(manifest).filter((e) => e.isEntry && /\/islands\//.test(e.src ?? "")).map((e) => e.file),
  );
  const server = new Server(DATA_DIR);
  await server.start();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
  try {
    const base = (t: typeof PT) => server.url(t.host);
    const cookies = new Map<string, string>();
    for (const t of [PT, SALES]) {
      const res = await fetch(`${base(t)}/api/login/access-token`, {
        method: "POST",
        body: new URLSearchParams({ username: t.email, password: PASSWORD }),
      });
      await res.body?.cancel();
      const set = res.headers.getSetCookie().map((c) => c.split(";")[0]);
      cookies.set(t.slug, set.join("; "));
    }
    const cookie = (t: typeof PT) => cookies.get(t.slug)!;
    const pages = await pagesOf(base, cookie);

    // JS per page, from the HTML the server sends.
    let heaviest = { name: "", gz: 0 };
    for (const p of pages) {
      const res = await fetch(base(p.tenant) + p.path, { headers: { cookie: cookie(p.tenant) } });
      const html = await res.text();
      if (res.status !== 200) {
        notes.push(`${p.name}: ${p.path} answered ${res.status}`);
        continue;
      }
      const js = jsOfPage(html, islandFiles);
      if (js.gzipBytes > heaviest.gz) heaviest = { name: p.name, gz: js.gzipBytes };
      rows.push({
        measure: `${p.name}: JS (gzip)`,
        figure: `${kb(js.gzipBytes)} in ${js.files.length} files (${kb(js.rawBytes)} raw)`,
        budget: "< 100 KB",
        pass: js.gzipBytes < 100 * 1024,
      });
      rows.push({
        measure: `${p.name}: every JS file announced up front (modulepreload)`,
        figure: js.notPreloaded.length
          ? `${js.notPreloaded.length} of ${js.files.length} found only by import`
          : "yes",
        budget: "no waterfall",
        pass: js.notPreloaded.length === 0,
      });
      rows.push({
        measure: `${p.name}: only its own islands`,
        figure: js.foreignIslands.length
          ? `also loads ${js.foreignIslands.map((f) => f.replace(/^assets\//, "")).join(", ")}`
          : `yes (${js.islands.length} islands)`,
        budget: "only that page's islands",
        pass: js.foreignIslands.length === 0,
      });
    }
    notes.push(
      `heaviest page: ${heaviest.name}, ${kb(heaviest.gz)} gzip (gzip level 6 of each file in dist/)`,
    );

    // Chromium on the slow link.
    const timed = opts.quick
      ? pages.filter((p) => p.name === "inspections (PT data)" || p.name === "ticket detail")
      : pages;
    for (const p of timed) {
      log(`pages: ${p.name}`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies(
        cookie(p.tenant).split("; ").map((c) => {
          const [n, ...v] = c.split("=");
          return { name: n, value: v.join("="), url: base(p.tenant) };
        }),
      );
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", SLOW);
      const visit = async () => {
        const t0 = performance.now();
        await page.goto(base(p.tenant) + p.path, { waitUntil: "commit", timeout: 120_000 });
        let firstRows = NaN;
        const rowsSeen = p.rows
          ? page.waitForSelector(ROWS, { state: "visible", timeout: 120_000 }).then(() => {
            firstRows = performance.now() - t0;
          })
          : Promise.resolve();
        await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 120_000 });
        const hydrated = performance.now() - t0;
        await rowsSeen;
        return { firstRows, hydrated };
      };
      try {
        const cold = await visit();
        const warm = await visit();
        rows.push({
          measure: `${p.name}: first rows, cold`,
          figure: ms(cold.firstRows),
          budget: "< 1.5 s",
          pass: cold.firstRows < 1500,
        });
        rows.push({
          measure: `${p.name}: interactive (hydrated), cold / warm`,
          figure: `${ms(cold.hydrated)} / ${ms(warm.hydrated)}`,
          budget: "< 4 s cold, < 1 s warm",
          pass: cold.hydrated < 4000 && warm.hydrated < 1000,
          note: `warm first rows ${ms(warm.firstRows)}`,
        });
        log(
          `  ${p.name}: rows ${ms(cold.firstRows)}, hydrated ${ms(cold.hydrated)} cold / ${
            ms(warm.hydrated)
          } warm`,
        );
      } catch (e) {
        notes.push(`${p.name}: browser timing failed: ${String(e).split("\n")[0]}`);
      } finally {
        await context.close();
      }
    }
    notes.push(
      "Slow link: CDP Network.emulateNetworkConditions 400 kbit/s down and up, 400 ms latency, on each page; " +
        "cold = new browser context (empty cache, session cookie set), warm = the same page loaded again in it. " +
        "Times from navigation start.",
    );
  } finally {
    await browser.close();
    await server.stop();
  }
  return { title: "Pages", rows, notes };
}
