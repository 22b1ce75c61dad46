import assert from "node:assert/strict";
import { browserTest, withBrowser } from "../scripts/testing/browser.ts";
import { PHONE } from "../scripts/testing/phone.ts";
import { makeJob } from "../db/factories.ts";
import { PAGE_END } from "./document.tsx";

/**
 * A page's HTML sent as a slow link sends it: the part before `<main` at once, the rest `pause` ms later. Every
 * other request (the scripts) passes through. On the page's own origin (127.0.0.1), so its cookie is sent.
 */
function stalledProxy(base: string, cookie: string, pause: number) {
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const res = await fetch(base + url.pathname + url.search, { headers: { cookie } });
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("text/html")) {
      return new Response(await res.arrayBuffer(), { status: res.status, headers: { "content-type": type } });
    }
    const html = new TextEncoder().encode(await res.text());
    const cut = new TextDecoder().decode(html).indexOf("<main");
    const body = new ReadableStream<Uint8Array>({
      async start(out) {
        out.enqueue(html.slice(0, cut));
        await new Promise((r) => setTimeout(r, pause));
        out.enqueue(html.slice(cut));
        out.close();
      },
    });
    return new Response(body, { status: res.status, headers: { "content-type": type } });
  });
}

/**
 * On a slow link Chromium's parser paints what it has whenever it waits or yields, and at a phone's speed it
 * painted the top bar, then part of the table, five to ten times before the rows were in (decision 059). The
 * document holds its first paint until its last element is parsed: with the rest of the HTML held back for
 * 1 s after the top bar, nothing is painted until it has come, and then the page with its rows at once.
 */
browserTest(
  "document - the first paint waits for the whole page: no top bar alone while the rows are on their way",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      for (let i = 1; i <= 3; i++) await makeJob(env.tenant.db, { job_number: `PAINT-${i}` });
      await signIn(undefined, undefined, "/pt/jobs");
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      const proxy = stalledProxy(base, cookie, 1000);
      const cold = await page.context().browser()!.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
      });
      try {
        await cold.addInitScript((end: string) => {
          const marks = { topBar: NaN, end: NaN, firstRow: NaN };
          (globalThis as unknown as { __marks: typeof marks }).__marks = marks;
          new MutationObserver(() => {
            const now = performance.now();
            if (Number.isNaN(marks.topBar) && document.querySelector("header.topbar")) marks.topBar = now;
            if (Number.isNaN(marks.firstRow) && document.querySelector("table tbody tr")) {
              marks.firstRow = now;
            }
            if (Number.isNaN(marks.end) && document.getElementById(end)) marks.end = now;
          }).observe(document, { subtree: true, childList: true });
        }, PAGE_END);
        const p = await cold.newPage();
        await p.goto(`http://127.0.0.1:${proxy.addr.port}/pt/jobs`, { waitUntil: "commit" });
        await p.getByRole("cell", { name: "PAINT-1" }).waitFor({ timeout: 15_000 });
        await p.waitForFunction(
          () => performance.getEntriesByName("first-contentful-paint").length > 0,
          undefined,
          {
            timeout: 15_000,
          },
        );
        const { marks, fcp } = await p.evaluate(() => ({
          marks:
            (globalThis as unknown as { __marks: { topBar: number; end: number; firstRow: number } }).__marks,
          fcp: performance.getEntriesByName("first-contentful-paint")[0].startTime,
        }));
        // The top bar was in the document well before the rest (sent 1 s later): it was not painted alone meanwhile.
        assert.ok(marks.end - marks.topBar >= 500, `the HTML was held back: ${JSON.stringify(marks)}`);
        assert.ok(
          fcp >= marks.end,
          `first paint ${fcp} ms, before the page's end was parsed ${JSON.stringify(marks)}`,
        );
        assert.ok(marks.firstRow <= marks.end, "the rows come before the page's end");
        assert.equal(
          await p.getByRole("link", { name: "PAINT-1" }).count(),
          1,
          "the row's job link is painted",
        );
      } finally {
        await cold.close();
        await proxy.shutdown();
      }
    }, { ...PHONE, loopback: true }),
);
