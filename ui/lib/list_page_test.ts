import assert from "node:assert/strict";
import { z } from "zod";
import { ListQuery, optionalText, queryEnum } from "../../api/lib/list_query.ts";
import { tableState } from "./list_page.tsx";

const Schema = ListQuery.extend({
  sortBy: queryEnum(["name", "date"]),
  search_name: optionalText,
  search_city: optionalText,
  company_id: z.coerce.number().int().positive().optional(),
});
const SORTED = {
  schema: Schema,
  sizes: [10, 25, -1],
  size: 10,
  sort: { by: "name" as const, descending: false },
};
const UNSORTED = { schema: Schema, sizes: [10], size: 10 };
const at = (url: string) => new URLSearchParams(url);

Deno.test("list page state - no query: page 1, the page's default size and order", () => {
  assert.deepEqual(tableState(SORTED, at("")).table, {
    page: 1,
    rowsPerPage: 10,
    sortBy: "name",
    descending: false,
  });
});

Deno.test("list page state - a hand-edited bad value falls back to its default, the rest applies", () => {
  const def = { ...SORTED, filters: ["search_name"] as const };
  const { table } = tableState(
    def,
    at("page=abc&rowsPerPage=10&sortBy=nope&descending=maybe&search_name=ace"),
  );
  assert.deepEqual(table, {
    page: 1,
    rowsPerPage: 10,
    sortBy: "name",
    descending: false,
    search_name: "ace",
  });
});

Deno.test("list page state - a size the page does not offer is its default size; one it offers stays", () => {
  assert.equal(tableState(SORTED, at("rowsPerPage=7")).table.rowsPerPage, 10);
  // 50 is a size the API accepts but this page does not offer.
  assert.equal(tableState(SORTED, at("rowsPerPage=50")).table.rowsPerPage, 10);
  assert.equal(tableState(SORTED, at("rowsPerPage=-1&page=3")).table.rowsPerPage, -1);
  assert.equal(tableState(SORTED, at("rowsPerPage=25&page=3")).table.page, 3);
});

Deno.test("list page state - the URL's order wins; without a default order the API's own applies", () => {
  assert.deepEqual(tableState(SORTED, at("sortBy=date&descending=true")).table, {
    page: 1,
    rowsPerPage: 10,
    sortBy: "date",
    descending: true,
  });
  assert.deepEqual(tableState(UNSORTED, at("")).table, { page: 1, rowsPerPage: 10 });
  assert.deepEqual(tableState(UNSORTED, at("sortBy=date")).table, {
    page: 1,
    rowsPerPage: 10,
    sortBy: "date",
    descending: false,
  });
});

Deno.test("list page state - only the page's filters with a value are kept, in its order", () => {
  const def = { ...SORTED, filters: ["search_name", "search_city"] as const };
  const { q, table } = tableState(def, at("search_city=Odessa&search_name=&company_id=4"));
  assert.deepEqual(Object.keys(table), ["page", "rowsPerPage", "sortBy", "descending", "search_city"]);
  assert.equal(table.search_city, "Odessa");
  // The API's other parameters stay in the whole parse, for the page to pass on or leave out.
  assert.equal(q.company_id, 4);
});
