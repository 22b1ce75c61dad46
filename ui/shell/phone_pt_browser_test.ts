import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { count, desc } from "drizzle-orm";
import { browserTest, eventually, withBrowser } from "../../scripts/testing/browser.ts";
import {
  assertDialogFits,
  assertNoSideways,
  assertTappable,
  assertTopBar,
  checkListPage,
  checkTable,
  listPagesOf,
  PHONE,
  seedPhoneData,
} from "../../scripts/testing/phone.ts";
import { inspections } from "../../db/schema/mod.ts";
import type { TestEnv } from "../../scripts/testing/harness.ts";

browserTest(
  "phone 390x844 - every Pressure Testing and admin list page: one-line top bar, rows read and acted on by touch, dialogs fit",
  () =>
    withBrowser(async ({ env, page, base, signIn, hydrated }) => {
      await seedPhoneData(env.tenant.db);
      await signIn(undefined, undefined, "/pt/jobs");
      const pages = listPagesOf("pt");
      assert.deepEqual(pages, ["/pt/jobs", "/pt/data", "/pt/parts", "/admin/companies", "/admin/accounts"]);
      for (const path of pages) {
        const seen = await checkListPage(page, hydrated, base + path);
        if (path === "/pt/jobs") {
          assert.deepEqual(seen.headers, ["Date", "Job Number", "Customer"]);
          assert.ok(
            seen.controls.includes("Inspection") && seen.controls.includes("Delete"),
            `${seen.controls}`,
          );
          assert.equal(seen.dialog, "Edit");
        }
        if (path === "/pt/data") assert.deepEqual(seen.headers, ["Date", "Serial Number", "Report"]);
      }
      // A job's inspections, reached from the job's row the way an inspector does it: the Inspection button.
      await page.goto(`${base}/pt/jobs`);
      await hydrated();
      await page.getByRole("table", { name: "Jobs" }).getByRole("button", { name: "Expand row" }).first()
        .tap();
      const to = await page.getByRole("link", { name: "Inspection" }).first().getAttribute("href");
      const seen = await checkListPage(page, hydrated, base + to);
      assert.match(seen.path, /^\/pt\/inspection\?job_id=\d+$/);
      assert.deepEqual(seen.headers, ["Date", "Serial Number", "Report"]);
      assert.ok(seen.controls.includes("Photos and signature"), `${seen.controls}`);
      assert.equal(seen.dialog, "Edit");
      // The top bar's Scan, from any page.
      await page.locator(".topbar").getByRole("button", { name: "Scan a serial number" }).tap();
      await assertDialogFits(page, "Scan a serial number");
    }, PHONE),
);

/** The Job Number of each row the Jobs table shows (its details rows left out). */
const jobNumbersIn = (page: Page) =>
  page.getByRole("table", { name: "Jobs" }).locator(":scope > tbody > tr:not(.expansion)").evaluateAll((
    trs,
  ) => trs.map((tr) => (tr.querySelector("td:nth-child(3)") as HTMLElement).innerText.trim()));

/** The job numbers the API answers for the page's own URL (its sort, page and size), asked in-process. */
async function jobNumbersOfApi(page: Page, env: TestEnv): Promise<string[]> {
  const session = (await page.context().cookies()).find((c) => c.name === "session")!;
  const res = await env.request(`/api/pt/jobs${new URL(page.url()).search}`, {
    cookie: `session=${session.value}`,
  });
  assert.equal(res.status, 200);
  return ((await res.json()).results as { job_number: string }[]).map((j) => j.job_number);
}

browserTest(
  "phone 390x844 - Jobs sorted by a column the phone hides, from Sort by, with and without the page's script",
  () =>
    withBrowser(async ({ page, base, env, signIn, hydrated }) => {
      await seedPhoneData(env.tenant.db);
      await signIn(undefined, undefined, "/pt/jobs");
      const jobs = page.getByRole("table", { name: "Jobs" });
      assert.equal(
        await jobs.getByRole("columnheader", { name: "District" }).count(),
        0,
        "District is hidden",
      );
      const before = await jobNumbersIn(page);
      const sortBy = page.getByLabel("Sort by");
      await assertTappable("Sort by", sortBy);
      assert.deepEqual(
        await sortBy.locator("option").allInnerTexts(),
        ["Date", "Job Number", "Customer", "Operator", "District", "Inspector"],
        "every sortable column, the hidden ones too",
      );
      await sortBy.selectOption({ label: "District" });
      await page.waitForURL((u) => u.searchParams.get("sortBy") === "district");
      const byDistrict = await jobNumbersOfApi(page, env);
      assert.notDeepEqual(byDistrict, before, "the demo's first page changes order by District");
      await eventually(async () => assert.deepEqual(await jobNumbersIn(page), byDistrict));

      const descending = page.getByRole("button", { name: "Descending" });
      await assertTappable("Sort by's Descending", descending);
      await descending.tap();
      await page.waitForURL((u) => u.searchParams.get("descending") === "true");
      assert.equal(await descending.getAttribute("aria-pressed"), "true");
      const down = await jobNumbersOfApi(page, env);
      assert.notDeepEqual(down, byDistrict);
      await eventually(async () => assert.deepEqual(await jobNumbersIn(page), down));
      await hydrated();

      // Before the island hydrates, or without script at all, it is a form: the server sorts.
      const plain = await page.context().browser()!.newContext({
        javaScriptEnabled: false,
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
      });
      try {
        await plain.addCookies(await page.context().cookies());
        const noScript = await plain.newPage();
        await noScript.goto(`${base}/pt/jobs?search_customer=&rowsPerPage=25`);
        await noScript.getByLabel("Sort by").selectOption({ label: "Inspector" });
        await noScript.getByRole("button", { name: "Descending" }).tap();
        await noScript.waitForURL((u) =>
          u.searchParams.get("sortBy") === "inspector" && u.searchParams.get("descending") === "true"
        );
        assert.equal(new URL(noScript.url()).searchParams.get("rowsPerPage"), "25", "the page size is kept");
        assert.deepEqual(await jobNumbersIn(noScript), await jobNumbersOfApi(noScript, env));
      } finally {
        await plain.close();
      }
    }, PHONE),
);

browserTest(
  "phone 390x844 - a serial's history: its rows and their links read and reached by touch",
  () =>
    withBrowser(async ({ page, env, signIn, hydrated }) => {
      await seedPhoneData(env.tenant.db);
      const [{ serial }] = await env.tenant.db.select({ serial: inspections.serial_number }).from(inspections)
        .groupBy(inspections.serial_number).orderBy(desc(count())).limit(1);
      await signIn(undefined, undefined, `/serials/${encodeURIComponent(serial)}`);
      await hydrated();
      const where = `/serials/${serial}`;
      await assertTopBar(page, where);
      await assertNoSideways(page, where);
      const history = page.locator(".table-wrap").filter({
        has: page.getByRole("table", { name: "History" }),
      });
      const seen = await checkTable(`${where} history`, history);
      assert.deepEqual(seen.headers.map((h) => h.name), ["Date", "What", "Links"]);
      assert.ok(seen.controls.includes("Report"), `${seen.controls}`);
      // What the hidden Kind and Who columns said is in the row.
      const what = seen.row.locator("td.what");
      assert.match(await what.locator(".cell-kind").innerText(), /\S/, "the kind of event");
      assert.match(await what.innerText(), /\nby \S/, "who did it");
      const units = page.locator(".table-wrap").filter({
        has: page.getByRole("table", { name: "Inventory rows" }),
      });
      if (await units.count()) await checkTable(`${where} inventory rows`, units);
      for (const name of ["Download", "Next page"]) {
        const control = page.getByRole(name === "Download" ? "button" : "link", { name });
        if (await control.count()) await assertTappable(`${where}: ${name}`, control);
      }
    }, PHONE),
);
