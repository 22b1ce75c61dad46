import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { browserTest, eventually, withBrowser } from "../../../../scripts/testing/browser.ts";
import type { TestEnv } from "../../../../scripts/testing/harness.ts";
import { makeCategory, makeInventory, makeItem, makeLine, makeTicket } from "../../../../db/factories.ts";
import { companies, inventory, inventory_log } from "../../../../db/schema/mod.ts";
import { LINE_COLUMN_KEYS } from "../../lines/columns.ts";

const TABLE = 'table[aria-label="Line items"]';
const FIRST = "LOT-2026-PERMIAN-1000";
const LATER = "P-7";

/**
 * A ticket of six lines with every column a company may choose (issue 31's 2,253 px table): itemized lots
 * with long item names, a serialized pump as the fifth line, and a charge code.
 */
async function ticketOfSix(env: TestEnv) {
  const db = env.tenant.db;
  await db.update(companies).set({
    settings: { Sales: { TicketPage: LINE_COLUMN_KEYS.filter((k) => k !== "order") } },
  }).where(eq(companies.id, 1));
  const unit = await makeCategory(db, {
    model: "Business Unit",
    name: "Permian Basin South Yard Operations",
  });
  const iron = await makeItem(db, {
    item_number: "FRAC-IRON-3IN-1502-LONG",
    item_description: "3in 1502 integral swivel joint, style 50, long radius",
    inventory_type: "Itemized",
    rate: 1234.5,
  });
  const pump = await makeItem(db, {
    item_number: "PUMP-1",
    item_description: "Triplex pump",
    inventory_type: "Serialized",
  });
  const miles = await makeItem(db, {
    item_number: "MILEAGE",
    item_description: "Mileage",
    inventory_type: "Charge Code",
  });
  const ticket = await makeTicket(db, { business_unit_id: unit.id, use_min_rate_logic: false });
  const kinds = [iron, iron, iron, iron, pump, miles];
  const sales: Record<string, number> = {};
  for (const [i, item] of kinds.entries()) {
    const quantity = item === iron ? 1200 : 1;
    const serial = item === pump ? LATER : item === miles ? "MILES-1" : `LOT-2026-PERMIAN-${1000 + i}`;
    const row = await makeInventory(db, {
      item_id: item.id,
      business_unit_id: unit.id,
      serial_number: serial,
      inventory_description: "Returned from the Tomahawk pad, inspected and recertified",
      quantity: item === iron ? 5000 : 1,
    });
    const line = await makeLine(db, {
      ticket_id: ticket.id,
      inventory_id: row.id,
      order: i + 1,
      quantity,
      quantity_held: item === miles ? 0 : quantity,
      price: 1234.5,
      duration: 12,
      discount: 12.5,
      state_tax: 6.25,
      start_date: "2026-10-01T07:00:00Z",
      end_date: "2026-10-13T17:30:00Z",
      notes: "Crew asked for the long-radius joints; swap two if the short ones come back first",
    });
    if (item !== miles) {
      await db.update(inventory).set({ quantity_out: quantity }).where(eq(inventory.id, row.id));
    }
    sales[serial] = line.id;
  }
  const { user } = await env.userWithToken({ name: "Ada Admin", permissions: ["sales-admin"] });
  return { ticket, user, pumpLine: sales[LATER] };
}

/** The row of a line, by its serial number. */
const row = (page: Page, serial: string) =>
  page.locator(`${TABLE} tbody tr`).filter({ has: page.getByRole("link", { name: serial, exact: true }) });

/**
 * Brings a control to the middle of the window by scrolling the page up or down only, then says whether
 * it is inside the window and whether a tap at its centre reaches it (`elementFromPoint` is the control or
 * inside it), with where that centre is.
 */
const reach = (control: Locator) =>
  control.evaluate((el) => {
    const before = el.getBoundingClientRect();
    scrollBy(0, before.top + before.height / 2 - innerHeight / 2);
    const r = el.getBoundingClientRect();
    const x = (r.left + r.right) / 2;
    const y = (r.top + r.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    return {
      inView: r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight,
      hit: !!hit && el.contains(hit),
      covered: hit && !el.contains(hit) ? hit.outerHTML.slice(0, 90) : "",
      x,
      y,
      left: r.left,
      right: r.right,
    };
  });

async function assertReachable(control: Locator, what: string) {
  const at = await reach(control);
  assert.ok(at.inView, `${what} is inside the window (${at.left}..${at.right})`);
  assert.ok(at.hit, `${what} takes a tap at its centre, not ${at.covered}`);
  return at;
}

/** Neither the page nor the line table scrolls sideways. */
async function assertNoSidewaysScroll(page: Page, when: string) {
  const sizes = await page.evaluate((sel) => {
    const wrap = document.querySelector(sel)!.closest(".table-wrap")!;
    return {
      page: document.documentElement.scrollWidth,
      window: innerWidth,
      table: wrap.scrollWidth,
      wrap: wrap.clientWidth,
      scrolled: wrap.scrollLeft + scrollX,
    };
  }, TABLE);
  assert.ok(sizes.page <= sizes.window, `${when}: the page fits the window: ${JSON.stringify(sizes)}`);
  assert.ok(sizes.table <= sizes.wrap, `${when}: the line table fits its box: ${JSON.stringify(sizes)}`);
  assert.equal(sizes.scrolled, 0, `${when}: nothing was scrolled sideways`);
}

browserTest(
  "check-in layout - at 390x844 by touch each line is a card: its identity, Select, Date, # In, # Sold and actions are in view and take a tap, and a touch check-in saves",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const { ticket, user, pumpLine } = await ticketOfSix(env);
      await page.setViewportSize({ width: 390, height: 844 });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
      /** A finger's tap at the control's centre, once it is known to reach the control. */
      const tap = async (control: Locator, what: string) => {
        const { x, y } = await assertReachable(control, what);
        await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
        await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      };
      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      await page.locator(`${TABLE} tbody tr`).first().waitFor();

      // The table keeps its rows and cells for assistive technology while it looks like cards.
      const table = page.getByRole("table", { name: "Line items" });
      assert.equal(await table.getByRole("row").count(), 7, "a header row and six lines");

      // Normal mode: each line's identity and actions, with no sideways scrolling.
      for (const serial of [FIRST, LATER]) {
        await assertReachable(row(page, serial).getByRole("link", { name: serial, exact: true }), serial);
        const item = serial === LATER ? "PUMP-1 · Triplex pump" : "FRAC-IRON-3IN-1502-LONG · 3in 1502";
        await assertReachable(row(page, serial).getByText(item), `${serial}'s item`);
        for (const action of ["Edit line", "Inventory log", "Delete line"]) {
          await assertReachable(
            page.getByRole("button", { name: `${action} ${serial}` }),
            `${action} ${serial}`,
          );
        }
      }
      await assertNoSidewaysScroll(page, "lines");

      // Check-in mode, by touch.
      await tap(
        page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", { name: "Check-In" }),
        "Check-In",
      );
      await page.getByRole("checkbox", { name: `Select ${FIRST}` }).waitFor();
      for (const serial of [FIRST, LATER]) {
        const line = row(page, serial);
        await assertReachable(line.getByRole("link", { name: serial, exact: true }), `${serial} in check-in`);
        await assertReachable(page.getByRole("checkbox", { name: `Select ${serial}` }), `Select ${serial}`);
        await assertReachable(page.getByLabel(`Date ${serial}`), `Date ${serial}`);
        await assertReachable(page.getByRole("textbox", { name: `Quantity in ${serial}` }), `# In ${serial}`);
        await assertReachable(
          page.getByRole("textbox", { name: `Quantity sold ${serial}` }),
          `# Sold ${serial}`,
        );
        await assertReachable(page.getByRole("button", { name: `Inventory log ${serial}` }), `log ${serial}`);
        await assertReachable(page.getByRole("button", { name: `Edit line ${serial}` }), `edit ${serial}`);
      }
      await assertReachable(
        page.getByRole("checkbox", { name: `Remove quantity ${FIRST}` }),
        "Remove quantity",
      );
      await assertReachable(row(page, "MILES-1").getByText("Nothing to check in"), "the charge code's note");
      await assertNoSidewaysScroll(page, "check-in mode");

      // A tap on Select ticks it, a second one clears it.
      const select = page.getByRole("checkbox", { name: `Select ${FIRST}` });
      await tap(select, `Select ${FIRST}`);
      await eventually(async () => assert.equal(await select.isChecked(), true));
      await tap(select, `Select ${FIRST}`);
      await eventually(async () => assert.equal(await select.isChecked(), false));

      // The pump comes back: a tap on its # In, the phone's keyboard, a tap on Submit Check-In.
      const quantityIn = page.getByRole("textbox", { name: `Quantity in ${LATER}` });
      await tap(quantityIn, `# In ${LATER}`);
      await eventually(async () =>
        assert.ok(await quantityIn.evaluate((el) => el === document.activeElement))
      );
      await page.keyboard.type("1");
      assert.equal(await page.getByRole("checkbox", { name: `Select ${LATER}` }).isChecked(), true);
      const answer = page.waitForResponse((r) =>
        r.url().endsWith("/api/sales/inventory/check-in") && r.request().method() === "POST"
      );
      await tap(page.getByRole("button", { name: "Submit Check-In" }), "Submit Check-In");
      assert.equal((await answer).status(), 200, "the server took the check-in");
      await page.getByRole("status").getByText("Checked in 1 line").waitFor();
      const log = await env.tenant.db.select().from(inventory_log).where(eq(inventory_log.sale_id, pumpLine));
      assert.deepEqual(log.map((e) => [e.action, e.quantity_in]), [["Check In", 1]]);
    }),
);

browserTest(
  "check-in layout - at 1366x768 each line's identity stays at the left beside its Select, # In and # Sold, wherever the table is scrolled",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const { ticket, user } = await ticketOfSix(env);
      await page.setViewportSize({ width: 1366, height: 768 });
      await signIn(user.email, "password123", `/sales/tickets/${ticket.id}`);
      await page.locator(`${TABLE} tbody tr`).first().waitFor();
      await page.getByRole("toolbar", { name: "Ticket actions" }).getByRole("button", { name: "Check-In" })
        .click();
      await page.getByRole("checkbox", { name: `Select ${FIRST}` }).waitFor();
      const scroll = (to: number | "end") =>
        page.evaluate(([sel, to]) => {
          const wrap = document.querySelector(sel)!.closest(".table-wrap")!;
          wrap.scrollLeft = to === "end" ? wrap.scrollWidth : Number(to);
        }, [TABLE, to] as const);

      for (const serial of [FIRST, LATER]) {
        await scroll(0);
        const line = row(page, serial);
        const link = line.getByRole("link", { name: serial, exact: true });
        const identity = await assertReachable(link.locator("xpath=ancestor::td"), `${serial}'s identity`);
        await assertReachable(link, serial);
        await assertReachable(
          line.getByText(serial === LATER ? "PUMP-1 · Triplex pump" : "FRAC-IRON-3IN"),
          "item",
        );
        const select = await assertReachable(
          page.getByRole("checkbox", { name: `Select ${serial}` }),
          "Select",
        );
        assert.ok(select.left - identity.right < 80, `Select is beside ${serial}'s identity`);
        await assertReachable(page.getByRole("textbox", { name: `Quantity in ${serial}` }), `# In ${serial}`);
        await assertReachable(
          page.getByRole("textbox", { name: `Quantity sold ${serial}` }),
          `# Sold ${serial}`,
        );
        // Scrolled to the far end, the identity is still there, with Status and the actions.
        for (const at of [600, "end"] as const) {
          await scroll(at);
          await assertReachable(line.getByRole("link", { name: serial, exact: true }), `${serial} at ${at}`);
          await assertReachable(line.getByRole("img"), `${serial}'s status at ${at}`);
          await assertReachable(
            page.getByRole("button", { name: `Inventory log ${serial}` }),
            `log at ${at}`,
          );
        }
      }
      await scroll(0);
      await page.getByRole("textbox", { name: `Quantity in ${LATER}` }).fill("1");
      await page.getByRole("button", { name: "Submit Check-In" }).click();
      await page.getByRole("status").getByText("Checked in 1 line").waitFor();
    }),
);
