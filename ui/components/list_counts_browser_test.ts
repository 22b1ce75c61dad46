import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { makeItem } from "../../db/factories.ts";

browserTest(
  "list counts - a page past the end of a one-row list says there is 1 in all, not 'are 1'",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      await makeItem(env.tenant.db, { item_number: "ONLY-1" });
      await signIn(undefined, undefined, "/sales/items?page=4");
      await page.getByText("Page 4 is past the end: there is 1 in all.").waitFor();
    }),
);
