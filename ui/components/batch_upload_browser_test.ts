import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import ExcelJS from "exceljs";
import { asc } from "drizzle-orm";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makeCategory } from "../../db/factories.ts";
import { items } from "../../db/schema/mod.ts";

const ROWS = 1200;
const BAD_ROW = 1100;

/** A stock list as a user keeps it: the download's headers in another order, one bad rate far down. */
async function stockList(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Items");
  ws.addRow(["Item Number", "Item Description", "Rate", "Category", "Taxable", "Notes"]);
  for (let i = 1; i <= ROWS; i++) {
    ws.addRow([
      i === 2 ? 1502 : `F-${String(i).padStart(4, "0")}`,
      `Fitting ${i}`,
      i === BAD_ROW ? "cheap" : i + 0.5,
      i === 1 ? "Flow Iron" : "",
      i % 2 === 0,
      "not uploaded",
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer() as ArrayBuffer);
}

const focused = (page: import("playwright-core").Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("aria-label"));

browserTest(
  "batch upload - a file is read into the grid, a bad cell is marked, the fixed upload saves all rows",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
      await signIn(undefined, undefined, "/sales/items");
      await page.getByRole("button", { name: "Batch Upload" }).click();
      const dialog = page.getByRole("dialog", { name: "Batch Upload" });
      const grid = dialog.getByRole("table", { name: "Rows to upload" });
      const cell = (name: string) => grid.getByRole("textbox", { name, exact: true });

      await dialog.getByLabel("Choose file").setInputFiles({
        name: "stock.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: await stockList(),
      });
      await dialog.getByText("1,200 rows to upload").waitFor();
      assert.deepEqual(
        await Promise.all(["Row 1, Item Number", "Row 1, Item", "Row 1, Rate", "Row 1, Category"].map((n) =>
          cell(n).inputValue()
        )),
        ["F-0001", "Fitting 1", "1.5", "Flow Iron"],
        "placed by the header row, which is dropped",
      );
      assert.equal(await cell("Row 2, Item Number").inputValue(), "1502", "a number cell as plain text");
      assert.equal(await cell("Row 2, Taxable").inputValue(), "TRUE");

      // Arrows and Enter move between cells; left and right once the caret is at the text's edge.
      await cell("Row 1, Rate").focus();
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(page), "Row 2, Rate");
      await page.keyboard.press("Enter");
      assert.equal(await focused(page), "Row 3, Rate");
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowRight");
      assert.equal(await focused(page), "Row 3, Category");
      await page.keyboard.press("Shift+Enter");
      assert.equal(await focused(page), "Row 2, Category");

      // Upload first checks the rows (the items' preview, decision 052): while they go up the dialog says how
      // many and its buttons wait.
      const hold = async (url: string) => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(url, async (route) => {
          await held;
          await route.continue();
        });
        return release;
      };
      const releaseCheck = await hold("**/api/sales/items/batch/preview");
      const upload = dialog.getByRole("button", { name: "Upload" });
      await upload.click();
      await dialog.getByText("Checking 1,200 rows...").waitFor();
      assert.equal(await upload.isDisabled(), true);
      assert.equal(await dialog.getByRole("button", { name: "Cancel" }).isDisabled(), true);
      assert.equal(await dialog.getByRole("button", { name: "Add rows" }).isDisabled(), true);
      releaseCheck();

      const alert = dialog.getByRole("alert");
      await alert.getByText("1 row has errors").waitFor();
      await alert.getByText(`Row ${BAD_ROW}, Rate: Must be a number`).waitFor();
      const bad = cell(`Row ${BAD_ROW}, Rate`);
      await bad.waitFor(); // scrolled into view: only the rows in view are in the page
      assert.equal(await bad.getAttribute("aria-invalid"), "true");
      assert.equal(await bad.inputValue(), "cheap");
      const marked = bad.locator("xpath=..");
      assert.equal(await marked.getAttribute("title"), `Row ${BAD_ROW}, Rate: Must be a number`);
      assert.match(await marked.innerText(), /Must be a number/);
      assert.equal((await env.tenant.db.select().from(items)).length, 0, "nothing is saved");

      await bad.fill("$3");
      await alert.waitFor({ state: "detached" });
      await page.unroute("**/api/sales/items/batch/preview");
      await upload.click();
      // The preview of every row, then Save sends them; while they go up, the same.
      await dialog.getByText(/^Check the changes/).waitFor({ timeout: 20000 });
      const releaseSave = await hold("**/api/sales/items/batch");
      const save = dialog.getByRole("button", { name: "Save" });
      await save.click();
      await dialog.getByText("Uploading 1,200 rows...").waitFor();
      assert.equal(await save.isDisabled(), true);
      releaseSave();
      await page.getByRole("status").getByText("1200 items created, 0 updated").waitFor({ timeout: 20000 });
      await dialog.waitFor({ state: "detached" });

      const saved = await env.tenant.db.select().from(items).orderBy(asc(items.id));
      assert.equal(saved.length, ROWS);
      const byNumber = new Map(saved.map((i) => [i.item_number, i]));
      assert.equal(byNumber.get("F-1100")?.rate, 3);
      assert.deepEqual(
        [byNumber.get("1502")?.item_description, byNumber.get("1502")?.isTaxable],
        ["Fitting 2", true],
      );
      assert.notEqual(byNumber.get("F-0001")?.category_id, null);
      assert.equal(byNumber.get("F-0003")?.isTaxable, false);
    }),
);
