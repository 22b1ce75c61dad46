import assert from "node:assert/strict";
import { type Browser, chromium, type Page } from "playwright-core";
import { existsSync } from "node:fs";
import { ADMIN, type TestEnv, testEnv } from "./harness.ts";

const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

let shared: Promise<Browser> | undefined;

/** One Chromium for the whole test run; each test gets its own context (cookies, storage). */
function browser(): Promise<Browser> {
  shared ??= launch();
  return shared;
}

/** A Chromium with the test flags, and `extra` ones (a test's own browser: a fake camera). */
function launch(extra: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
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
      // Tenants are told apart by host name: *.test all reach the test server on loopback.
      "--host-resolver-rules=MAP *.test 127.0.0.1",
      ...extra,
    ],
  });
}

globalThis.addEventListener("unload", () => {
  shared?.then((b) => b.close()).catch(() => undefined);
});

export interface BrowserEnv {
  env: TestEnv;
  page: Page;
  /** http://acme.test:<port> (http://127.0.0.1:<port> with `loopback`) */
  base: string;
  /** Signs in through the form and waits for the target page to hydrate. */
  signIn(email?: string, password?: string, path?: string): Promise<void>;
  /** Waits until every island on the page has hydrated. */
  hydrated(): Promise<void>;
}

export interface BrowserOptions {
  width?: number;
  /** the window's height (default 900) */
  height?: number;
  /** a phone: touch events (`tap`) and the page's viewport meta honoured */
  mobile?: boolean;
  /**
   * Address the server as http://127.0.0.1 (the only tenant answers there): a secure context, which
   * service workers need; acme.test over http is not one.
   */
  loopback?: boolean;
  serviceWorkers?: "allow" | "block";
  /** Chromium flags of a browser of this test's own (given the server's address), e.g. a fake camera */
  flags?: (base: string) => string[];
}

/** A real server on a free port, a real Chromium page, a fresh tenant; all torn down after. */
export async function withBrowser(fn: (b: BrowserEnv) => Promise<void>, opts: BrowserOptions = {}) {
  const env = await testEnv();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, env.app.fetch);
  const base = `http://${opts.loopback ? "127.0.0.1" : "acme.test"}:${server.addr.port}`;
  const own = opts.flags ? await launch(opts.flags(base)) : undefined;
  const context = await (own ?? await browser()).newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    hasTouch: opts.mobile,
    isMobile: opts.mobile,
    serviceWorkers: opts.serviceWorkers ?? "allow",
  });
  const page = await context.newPage();
  // Whatever the Content-Security-Policy blocks is a failure of the test (api/middleware/security_headers.ts).
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  const hydrated = () =>
    page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15000 }).then(() => {});
  try {
    await fn({
      env,
      page,
      base,
      hydrated,
      async signIn(email = ADMIN.email, password = ADMIN.password, path = "/") {
        await page.goto(`${base}${path}`);
        await page.getByLabel("Email").fill(email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Sign In" }).click();
        await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
        await hydrated();
      },
    });
    assert.deepEqual(blocked, [], "the page broke its Content-Security-Policy");
  } catch (e) {
    const shot = `test-results/failure-${Date.now()}.png`;
    await Deno.mkdir("test-results", { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    (e as Error).message += `\n(screenshot: ${shot}, url: ${page.url()})`;
    throw e;
  } finally {
    await context.close();
    await own?.close();
    await server.shutdown();
    await env.close();
  }
}

/** Browser tests hold sockets and timers across the shared browser: skip Deno's leak sanitizers. */
export const browserTest = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });

/** Retries an assertion until it holds (tables refetch after each change), for up to 5 s. */
export async function eventually(check: () => Promise<void>) {
  for (let i = 0;; i++) {
    try {
      return await check();
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
