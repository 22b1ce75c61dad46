import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { png } from "../../scripts/testing/images.ts";
import { makeCompany, makeJob, makeTicket } from "../../db/factories.ts";
import { companies } from "../../db/schema/mod.ts";
import type { TenantDatabase } from "../../db/client.ts";

/**
 * The on-screen logo follows the one rule of the PDFs (lib/company_logo.ts, decision 044): `logoSVG` (SVG, or
 * a PNG/JPEG kept there), then `companyLogo`; `logoSVGHeight` sets its height. Every screen that shows it:
 * the top bar of each page of both apps (at most 56 px high there), and the page logos of Jobs, the job's
 * Inspections, Inspection Data, Invoices and the ticket screen.
 */

const PNG_URL = `data:image/png;base64,${Buffer.from(png(120, 40)).toString("base64")}`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
  '<rect width="120" height="40" fill="#1d4ed8"/></svg>';
const TOP_BAR_FIT = 56;

/** Each screen with a page logo, and the most height it gives the logo (ui/**: CompanyLogo's `fit`). */
async function screens(db: TenantDatabase) {
  const job = await makeJob(db, { inspection_company_id: 1, job_number: "LOGO-1" });
  const ticket = await makeTicket(db, { ticket_number: "T-LOGO", status: "OPEN" });
  return [
    { path: "/pt/jobs", fit: 200 },
    { path: `/pt/inspection?job_id=${job.id}`, fit: 75 },
    { path: "/pt/data", fit: 75 },
    { path: "/sales/invoices", fit: 75 },
    { path: `/sales/tickets/${ticket.id}`, fit: 90 },
  ];
}

async function setLogo(db: TenantDatabase, logo: Record<string, unknown>) {
  await db.update(companies).set({ settings: { apps: ["sales"], ...logo } }).where(eq(companies.id, 1));
}

interface Shown {
  count: number;
  broken: number;
  heights: number[];
  sources: string[];
}

/** What the page shows as logos: how many, how many failed to load, their heights and sources. */
async function logosOn(page: Page, scope: string): Promise<Shown> {
  const imgs = page.locator(`${scope} img.company-logo`);
  // Each image has loaded or failed before it is measured (data URLs decode without the network).
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll<HTMLImageElement>(sel)].every((i) => i.complete),
    `${scope} img.company-logo`,
    { timeout: 10000 },
  );
  return await imgs.evaluateAll((list) => {
    const shown = list as HTMLImageElement[];
    return {
      count: shown.length,
      broken: shown.filter((i) => i.naturalWidth === 0).length,
      heights: shown.map((i) => Math.round(i.getBoundingClientRect().height)),
      sources: shown.map((i) => i.src.split(",")[0]),
    };
  });
}

async function assertLogos(page: Page, base: string, list: { path: string; fit: number }[], want: {
  height: number;
  source: string;
}) {
  for (const { path, fit } of list) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15000 });
    const bar = await logosOn(page, ".topbar");
    assert.equal(bar.count, 1, `${path}: one logo in the top bar`);
    assert.equal(bar.broken, 0, `${path}: the top bar's logo loads`);
    assert.equal(bar.heights[0], Math.min(want.height, TOP_BAR_FIT), `${path}: the top bar's logo height`);
    assert.equal(bar.sources[0], want.source, `${path}: the top bar shows the chosen setting`);
    const own = await logosOn(page, "main");
    assert.equal(own.count, 1, `${path}: the page's own logo`);
    assert.equal(own.broken, 0, `${path}: the page's logo loads (not a broken image)`);
    assert.equal(own.heights[0], Math.min(want.height, fit), `${path}: the height logoSVGHeight asks`);
    assert.equal(own.sources[0], want.source, `${path}: the page shows the chosen setting`);
  }
}

browserTest(
  "logo - a PNG kept in logoSVG shows on every screen as an image that loads, at logoSVGHeight",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const list = await screens(env.tenant.db);
      // companyLogo is there too, but logoSVG comes first.
      await setLogo(env.tenant.db, { logoSVG: PNG_URL, logoSVGHeight: 60, companyLogo: SVG });
      await signIn();
      await assertLogos(page, base, list, { height: 60, source: "data:image/png;base64" });
      // The welcome page and the admin pages have the top bar's logo only.
      for (const path of ["/", "/admin/companies", "/sales/tickets"]) {
        await page.goto(`${base}${path}`);
        const bar = await logosOn(page, ".topbar");
        assert.deepEqual([bar.count, bar.broken], [1, 0], `${path}: the top bar's logo loads`);
      }
    }),
);

browserTest(
  "logo - a bare base64 PNG in logoSVG, an SVG in logoSVG, each at its height",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const list = await screens(env.tenant.db);
      await setLogo(env.tenant.db, {
        logoSVG: PNG_URL.slice("data:image/png;base64,".length),
        logoSVGHeight: 40,
      });
      await signIn();
      await assertLogos(page, base, list, { height: 40, source: "data:image/png;base64" });
      await setLogo(env.tenant.db, { logoSVG: SVG, logoSVGHeight: 80 });
      await assertLogos(page, base, list, { height: 80, source: "data:image/svg+xml;base64" });
    }),
);

browserTest(
  "logo - without logoSVG, companyLogo at the default 75; with neither, the name and no broken image",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const list = await screens(env.tenant.db);
      await setLogo(env.tenant.db, { companyLogo: PNG_URL });
      await signIn();
      await assertLogos(page, base, list, { height: 75, source: "data:image/png;base64" });

      // A logoSVG that holds no image (blank) is passed over, as the PDFs pass it over.
      await setLogo(env.tenant.db, { logoSVG: "  ", logoSVGHeight: 50 });
      const [owner] = await env.tenant.db.select().from(companies).where(eq(companies.id, 1));
      for (const { path } of list) {
        await page.goto(`${base}${path}`);
        await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15000 });
        assert.equal(await page.locator("img").evaluateAll((l) => l.length), 0, `${path}: no image at all`);
        // The top bar names the company instead.
        assert.equal(await page.locator(".topbar .company-name").innerText(), owner.name, path);
      }
      // A customer company's logo is its own business: another company's settings never show here.
      await makeCompany(env.tenant.db, { name: "Logo Customer", settings: { logoSVG: SVG } });
      await page.goto(`${base}/pt/jobs`);
      assert.equal(await page.locator("img.company-logo").count(), 0);
    }),
);
