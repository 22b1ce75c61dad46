import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { type BrowserOptions, eventually } from "./browser.ts";
import type { TenantDatabase } from "../../db/client.ts";
import { companies } from "../../db/schema/mod.ts";
import { seedDemo } from "../demo.ts";
import { MENUS } from "../../ui/shell/menus.ts";

/** A phone held upright (issue 32): 390x844 CSS pixels, touch. */
export const PHONE: BrowserOptions = { width: 390, height: 844, mobile: true };

/** Menu pages that are not paged lists: each is checked where it is built, not by `checkListPage`. */
export const NOT_LISTS = new Set(["/", "/serials", "/sales/availability", "/sales/dashboard"]);

/** Every list page of an app's menu, as the drawer offers them (a new list page is checked by being listed). */
export const listPagesOf = (app: keyof typeof MENUS) =>
  MENUS[app].map((e) => e.href).filter((href) => !NOT_LISTS.has(href));

/** The demo data (every list has rows) and an owner company whose name is far longer than a phone's width. */
export async function seedPhoneData(db: TenantDatabase) {
  await seedDemo(db, { scryptN: 1024 });
  await db.update(companies).set({ name: "Acme Pressure Testing and Inspection Services of West Texas" })
    .where(eq(companies.isOwner, true));
}

/**
 * `what` is inside the window without scrolling anything sideways and a tap at its centre reaches it: the
 * page (or the dialog) is scrolled up or down to it, then `elementFromPoint` at its centre is the control
 * itself or inside it.
 */
export async function assertTappable(what: string, control: Locator) {
  const r = await control.evaluate((el) => {
    // Up or down only, as a thumb scrolls: the box that scrolls vertically (a dialog), else the page.
    // (scrollIntoView would also scroll sideways, and a phone's visual viewport with it.)
    const middle = () => {
      const b = el.getBoundingClientRect();
      return (b.top + b.bottom) / 2;
    };
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight) {
        const c = p.getBoundingClientRect();
        p.scrollTop += middle() - (c.top + c.bottom) / 2;
        break;
      }
    }
    // Partly below or above the window: scrolled up or down into it, as a thumb would (never sideways).
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) scrollBy(0, middle() - innerHeight / 2);
    const sideways: string[] = [];
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (p.scrollLeft !== 0) {
        sideways.push(`${p.tagName}.${p.className} scrolled ${p.scrollLeft}px sideways`);
      }
    }
    const b = el.getBoundingClientRect();
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    return {
      box: [b.left, b.top, b.right, b.bottom].map(Math.round),
      size: b.width * b.height,
      sideways,
      hit: !!hit && el.contains(hit),
      found: hit ? hit.outerHTML.slice(0, 160) : "nothing",
      vw: innerWidth,
      vh: innerHeight,
    };
  });
  assert.ok(r.size > 0, `${what} is shown`);
  assert.deepEqual(r.sideways, [], `${what} is reached without scrolling sideways`);
  const [left, top, right, bottom] = r.box;
  assert.ok(left >= 0 && right <= r.vw, `${what} is inside the window's width: ${left}-${right} of ${r.vw}`);
  assert.ok(top >= 0 && bottom <= r.vh, `${what} is inside the window's height: ${top}-${bottom} of ${r.vh}`);
  if (r.hit) return;
  // A control that has just appeared (a menu's item) may be revealed a moment later: wait for it, not longer
  // than a user would.
  await eventually(async () => {
    const hit = await control.evaluate((el) => {
      const b = el.getBoundingClientRect();
      const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
      return { hit: !!hit && el.contains(hit), found: hit ? hit.outerHTML.slice(0, 160) : "nothing" };
    });
    assert.ok(hit.hit, `a tap at the centre of ${what} reaches it, not ${hit.found}`);
  });
}

/** The shown controls under `scope` (links, buttons, fields), each with a name for messages. */
async function controlsIn(scope: Locator): Promise<{ name: string; control: Locator }[]> {
  const all = scope.locator("a[href], button, input, select");
  const out: { name: string; control: Locator }[] = [];
  for (let i = 0; i < await all.count(); i++) {
    const c = all.nth(i);
    if (!await c.isVisible()) continue;
    const name = await c.evaluate((el) =>
      el.getAttribute("aria-label") || (el as HTMLElement).innerText.trim() || el.outerHTML.slice(0, 80)
    );
    out.push({ name, control: c });
  }
  return out;
}

/** The page does not scroll sideways: nothing is wider than the window. */
export async function assertNoSideways(page: Page, where: string) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  assert.ok(scroll <= width, `${where}: the page is ${scroll}px wide in a ${width}px window`);
}

/** The top bar is one line: its texts are one line each, uncut titles, and its buttons are all in reach. */
export async function assertTopBar(page: Page, where: string) {
  const bar = await page.evaluate(() => {
    const bar = document.querySelector(".topbar")!;
    const r = bar.getBoundingClientRect();
    const texts = [...bar.querySelectorAll<HTMLElement>(".company-name, .company-logo, .app-title")].map(
      (e) => {
        const b = e.getBoundingClientRect();
        return {
          name: e.className,
          height: b.height,
          line: parseFloat(getComputedStyle(e).lineHeight) || 20,
          inside: b.top >= r.top && b.bottom <= r.bottom && b.right <= innerWidth,
          cut: e.scrollWidth > e.clientWidth,
        };
      },
    );
    return { height: r.height, texts };
  });
  assert.ok(bar.height <= 64, `${where}: the top bar is ${bar.height}px high`);
  for (const t of bar.texts) {
    assert.ok(t.inside, `${where}: ${t.name} is inside the top bar`);
    if (t.name !== "company-logo") {
      assert.ok(
        t.height < t.line * 1.5,
        `${where}: ${t.name} is one line (${t.height}px, lines of ${t.line}px)`,
      );
    }
  }
  assert.ok(!bar.texts.find((t) => t.name === "app-title")?.cut, `${where}: the app's title is not cut`);
  for (const name of ["Toggle menu", "Scan a serial number", "Log out"]) {
    await assertTappable(
      `${where}: top bar's ${name}`,
      page.locator(".topbar").getByRole("button", { name }),
    );
  }
}

/** An open dialog fits the window: no part outside it and nothing in it to scroll sideways; its buttons reached. */
export async function assertDialogFits(page: Page, where: string) {
  const modal = page.locator(".modal").last();
  await modal.waitFor();
  // A lazy dialog says "Loading..." until its code has come: wait for its form's buttons. On a touch screen
  // react-aria reveals a dialog whose first field takes focus once the on-screen keyboard has opened, or
  // after 600 ms (it is transparent and clipped until then): wait for that too.
  await modal.locator(".dialog-actions button").first().waitFor();
  await page.waitForFunction(() => {
    const overlay = document.querySelectorAll(".modal-overlay");
    return overlay.length > 0 && getComputedStyle(overlay[overlay.length - 1]).opacity === "1";
  });
  const m = await modal.evaluate((el) => {
    const b = el.getBoundingClientRect();
    return {
      box: [b.left, b.top, b.right, b.bottom].map(Math.round),
      scroll: [el.scrollWidth, el.clientWidth],
      vw: innerWidth,
      vh: innerHeight,
    };
  });
  const [left, top, right, bottom] = m.box;
  assert.ok(left >= 0 && top >= 0 && right <= m.vw && bottom <= m.vh, `${where}: the dialog fits: ${m.box}`);
  assert.ok(m.scroll[0] <= m.scroll[1], `${where}: nothing in the dialog scrolls sideways: ${m.scroll}`);
  for (const c of await controlsIn(modal.locator(".dialog-actions"))) {
    await assertTappable(`${where}: the dialog's ${c.name}`, c.control);
  }
  await page.keyboard.press("Escape");
  await modal.waitFor({ state: "detached" });
}

/**
 * A table on a phone (a list's, or one a page renders without an island): its wrap does not scroll
 * sideways, the headers shown are inside the window and uncut, the first row has cells, each shown whole,
 * with its key fields, and every control in it (links, buttons, fields) is reached by a tap.
 */
export async function checkTable(where: string, wrap: Locator) {
  const table = wrap.locator(":scope > table.data");
  const [scroll, client] = await wrap.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  assert.ok(scroll <= client, `${where}: the table is ${scroll}px wide in ${client}px: it scrolls sideways`);

  const headers = await table.locator(":scope > thead > tr > th").evaluateAll((ths) =>
    ths.filter((th) => th.getBoundingClientRect().width > 0 && !th.classList.contains("expand-col")).map(
      (th) => {
        const b = th.getBoundingClientRect();
        return {
          name: (th as HTMLElement).innerText.trim(),
          inside: b.left >= 0 && b.right <= innerWidth,
          cut: th.scrollWidth > th.clientWidth,
        };
      },
    )
  );
  for (const h of headers) {
    assert.ok(h.inside && !h.cut, `${where}: header ${h.name} is inside the window, uncut`);
  }
  const named = headers.filter((h) => h.name);
  assert.ok(
    named.length >= Math.min(2, headers.length),
    `${where}: the headers shown: ${named.map((h) => h.name)}`,
  );

  const row = table.locator(":scope > tbody > tr").first();
  assert.equal(await row.locator("td.empty").count(), 0, `${where}: the list has rows`);
  const cells = await row.locator(":scope > td").evaluateAll((tds) =>
    tds.filter((td) => td.getBoundingClientRect().width > 0).map((td) => {
      const b = td.getBoundingClientRect();
      return {
        text: (td as HTMLElement).innerText.trim(),
        inside: b.left >= 0 && b.right <= innerWidth,
        cut: td.scrollWidth > td.clientWidth,
      };
    })
  );
  for (const c of cells) {
    assert.ok(c.inside && !c.cut, `${where}: the first row's cell "${c.text}" is shown whole`);
  }
  assert.ok(
    cells.filter((c) => c.text).length >= Math.min(2, named.length),
    `${where}: the first row's key fields`,
  );

  // A narrowed list's "Sort by" (its hidden columns' headers cannot be tapped): in reach too.
  for (const c of await controlsIn(wrap.locator(":scope > .sort-bar"))) {
    await assertTappable(`${where}: Sort by's ${c.name}`, c.control);
  }
  const controls: string[] = [];
  for (const c of await controlsIn(row)) {
    await assertTappable(`${where}: the first row's ${c.name}`, c.control);
    controls.push(c.name);
  }
  return { headers: named, row, controls };
}

export interface ListPageReport {
  path: string;
  /** the headers shown on the phone */
  headers: string[];
  /** the controls of the first row and its details that were reached */
  controls: string[];
  dialog?: string;
}

/**
 * One list page on a phone: the top bar on one line, nothing wider than the window, the table's shown
 * headers and the first row's cells inside it and uncut, every control of the first row (links, menus,
 * the expand button) and of its details (opened by a tap) reached by a tap without scrolling sideways,
 * a row menu's items too, the "Sort by" control of a narrowed list, the pagination's controls, and a dialog
 * (the row's Edit, else the page's New, else the row's Delete) that fits the window.
 */
export async function checkListPage(
  page: Page,
  hydrated: () => Promise<void>,
  url: string,
): Promise<ListPageReport> {
  await page.goto(url);
  await hydrated();
  const path = new URL(page.url()).pathname + new URL(page.url()).search;
  const where = path;
  await assertTopBar(page, where);
  await assertNoSideways(page, where);

  const wrap = page.locator(".table-wrap").first();
  const table = wrap.locator(":scope > table.data");
  const { headers: named, row, controls } = await checkTable(where, wrap);
  // A row's menu (inventory): its items are in reach too.
  const menuButton = row.locator("button[aria-haspopup=menu]");
  if (await menuButton.count()) {
    await menuButton.tap();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    for (const c of await controlsIn(menu)) {
      await assertTappable(`${where}: the row menu's ${c.name}`, c.control);
    }
    for (const item of await menu.getByRole("menuitem").all()) {
      await assertTappable(`${where}: the row menu's ${await item.innerText()}`, item);
    }
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
  }

  let dialogButton: Locator | undefined;
  let deleteButton: Locator | undefined;
  const expand = row.getByRole("button", { name: "Expand row" });
  if (await expand.isVisible()) {
    await expand.tap();
    await row.getByRole("button", { name: "Collapse row" }).waitFor();
    const details = table.locator(":scope > tbody > tr.expansion").first();
    await details.waitFor();
    const [dScroll, dClient] = await details.locator("td").first().evaluate((
      td,
    ) => [td.scrollWidth, td.clientWidth]);
    assert.ok(dScroll <= dClient, `${where}: the row's details are ${dScroll}px wide in ${dClient}px`);
    for (const c of await controlsIn(details)) {
      await assertTappable(`${where}: the row's details' ${c.name}`, c.control);
      controls.push(c.name);
    }
    const edit = details.getByRole("button", { name: "Edit", exact: true });
    if (await edit.count()) dialogButton = edit;
    // A read-mostly list's row may be deleted (Sales Data's lines): its confirmation is a dialog too.
    const remove = details.getByRole("button", { name: /^Delete\b/ });
    if (await remove.count()) deleteButton = remove.first();
  }
  const pager = page.locator("nav.pagination");
  for (const c of await controlsIn(pager)) {
    await assertTappable(`${where}: pagination's ${c.name}`, c.control);
  }

  if (!dialogButton) {
    const create = page.getByRole("button", { name: /^New\b/ });
    if (await create.count()) dialogButton = create.first();
  }
  dialogButton ??= deleteButton;
  let dialog: string | undefined;
  if (dialogButton) {
    dialog = (await dialogButton.innerText()).trim();
    await assertTappable(`${where}: ${dialog}`, dialogButton);
    await dialogButton.tap();
    await assertDialogFits(page, `${where}: ${dialog}`);
  }
  return { path, headers: named.map((h) => h.name), controls, dialog };
}
