import type { Page } from "playwright-core";

/**
 * A second signed-in user in a browser context of their own (the conflict tests of decision 038: two
 * people on one record), at `path`, hydrated.
 */
export async function secondUser(
  page: Page,
  base: string,
  email: string,
  path: string,
  width = 1280,
  height = 900,
) {
  const context = await page.context().browser()!.newContext({ viewport: { width, height } });
  const other = await context.newPage();
  await other.goto(`${base}${path}`);
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password").fill("password123");
  await other.getByRole("button", { name: "Sign In" }).click();
  await other.waitForURL((u) => !u.pathname.startsWith("/signin"));
  await other.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15000 });
  return { other, close: () => context.close() };
}

/** The table's row matching `text`, expanded, and its Edit pressed: the edit dialog `title`, ready. */
export async function openRowEdit(
  page: Page,
  table: string,
  text: string | RegExp,
  title: string,
  submit = "Save",
) {
  const rows = page.getByRole("table", { name: table });
  const name = typeof text === "string" ? new RegExp(text) : text;
  await rows.getByRole("row", { name }).getByRole("button", { name: "Expand row" }).click();
  await rows.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.getByRole("button", { name: submit }).waitFor();
  return dialog;
}

/** The conflict dialog of a stale save (decision 038). */
export const conflictOf = (page: Page) =>
  page.getByRole("dialog", { name: "Someone else changed this record" });
