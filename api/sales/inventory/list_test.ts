// The inventory list on a few thousand rows: every sort pages through each row once, in order, and
// reads an index rather than sorting every row; the serial search uses the trigram index; totals are
// cached until a write.
import assert from "node:assert/strict";
import type { InStatement } from "@libsql/client";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { isFileUrl } from "../../../db/client.ts";
import { InventoryListQuery, listInventory, listInventoryLocations, LocationListQuery } from "./service.ts";
import { INVENTORY_SORTS, LOCATION_SORTS } from "./schemas.ts";
import {
  makeItemOf,
  makeRow,
  makeUnit,
  type PlanLine,
  planOf,
  recordingCtx,
  send,
  tokenWith,
} from "./test_fixtures.ts";
import { viewWalk } from "./service/list_locations.ts";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

const PATH = "/api/sales/inventory";

/** 3,000 rows over 30 items (two types) and 3 units, some hidden, with mixed-case serials. */
async function manyRows(env: TestEnv) {
  const units = [
    await makeUnit(env, [], "Odessa"),
    await makeUnit(env, [], "midland"),
    await makeUnit(env, []),
  ];
  const items = [];
  for (let i = 0; i < 30; i++) {
    items.push(
      await makeItemOf(env, i % 3 ? "Serialized" : "Itemized", {
        item_number: `${i % 2 ? "a" : "B"}-${String(30 - i).padStart(2, "0")}`,
        item_description: `valve ${i % 7}`,
      }),
    );
  }
  await env.tenant.client.execute(`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000)
    insert into inventory (company_id, item_id, business_unit_id, serial_number, quantity, quantity_out,
      hidden, updated_at)
    select 1, ${items[0].id} + (i * 7) % 30, ${units[0].id} + i % 3,
      (case when i % 2 then 'sn-' else 'SN-' end) || ((i * 37) % 1000) || '-' || (i % 4),
      1 + i % 5, i % 2, i % 11 = 0, '2026-01-' || printf('%02d', 1 + i % 28) || 'T00:00:00Z'
    from n`);
  // A libSQL server refuses ANALYZE (the plan tests that need statistics run on files only).
  if (isFileUrl(env.tenant.url)) await env.tenant.client.execute("analyze");
}

Deno.test("inventory list - each sort pages through every row once, in its order, both ways", () =>
  withEnv(async (env) => {
    await manyRows(env);
    const token = await tokenWith(env, []);
    // Shown rows only, and with the hidden ones (every list index starts with the flag: the two are merged).
    for (const hidden of ["", "&include_hidden=true"]) {
      const all =
        (await env.json(`${PATH}?inventory_type=Serialized&rowsPerPage=-1${hidden}`, { token })).results;
      assert.ok(all.length > 1000);
      for (const sortBy of [undefined, ...INVENTORY_SORTS]) {
        for (const descending of sortBy ? [false, true] : [false]) {
          const q = `inventory_type=Serialized${hidden}${
            sortBy ? `&sortBy=${sortBy}&descending=${descending}` : ""
          }`;
          const ids: number[] = [];
          // deno-lint-ignore no-explicit-any
          let rows: any[] = [];
          for (let page = 1;; page++) {
            const body = await env.json(`${PATH}?${q}&rowsPerPage=60&page=${page}`, { token });
            assert.equal(body.total, all.length);
            ids.push(...body.results.map((r: { id: number }) => r.id));
            rows = rows.concat(body.results);
            if (body.results.length < 60) break;
          }
          assert.equal(new Set(ids).size, all.length, `${q}: each row once`);
          const key = (r: Record<string, never>) => {
            switch (sortBy ?? "item_number") {
              case "item_number":
                return (r.item as { item_number: string }).item_number.toLowerCase();
              case "item_description":
                return (r.item as { item_description: string }).item_description.toLowerCase();
              case "business_unit":
                return (r.business_unit as { name: string }).name.toLowerCase();
              case "serial_number":
                return (r.serial_number as string).toLowerCase();
              default:
                return r[sortBy!];
            }
          };
          for (let i = 1; i < rows.length; i++) {
            const [a, b] = [key(rows[i - 1]), key(rows[i])];
            assert.ok(descending ? a >= b : a <= b, `${q}: row ${i} in order (${a}, ${b})`);
          }
          // Every row (page=-1) is the pages put together, ties included.
          const every = (await env.json(`${PATH}?${q}&page=-1`, { token })).results;
          assert.deepEqual(every.map((r: { id: number }) => r.id), ids, `${q}: every row`);
        }
      }
    }
    assert.ok(
      (await env.tenant.client.execute("select count(*) from inventory where hidden = 1"))
        .rows[0][0] as number > 0,
      "some rows are hidden",
    );
  }));

Deno.test("inventory list - pages, sorts and the serial search read indexes, not every row", () =>
  withEnv(async (env) => {
    await manyRows(env);
    const user = await env.json("/api/admin/users/me", { token: await tokenWith(env, []) });
    const cases: Record<string, string>[] = [
      { page: "1" },
      { page: "30" },
      ...INVENTORY_SORTS.flatMap((sortBy) => [
        { sortBy, page: "3", descending: "false" },
        { sortBy, page: "3", descending: "true" },
      ]),
      { search_serial_number: "37-1" },
      // Every type: items are walked in order all the same (the planner, with no type to filter items by,
      // read every row and sorted them).
      { inventory_type: "", page: "30" },
      { inventory_type: "", sortBy: "item_description", page: "3" },
      // Hidden rows too: the shown and the hidden ones each from an index, merged (no sort of every row).
      ...INVENTORY_SORTS.map((sortBy) => ({ sortBy, page: "3", include_hidden: "true" })),
    ];
    let totalsPlanned = false;
    for (const c of cases) {
      const log: InStatement[] = [];
      await listInventory(
        recordingCtx(env, user, log),
        InventoryListQuery.parse({ inventory_type: "Serialized", ...c }),
      );
      const name = JSON.stringify(c);
      const sqlOf = (s: InStatement) => typeof s === "string" ? s : s.sql;
      const page = log.find((s) => /\blimit\b/i.test(sqlOf(s)));
      assert.ok(page, `${name}: a paged statement`);
      const plan = await planOf(env, page);
      const text = plan.map((l) => l.detail).join("\n");
      // The deferred join: the page's ids come from an index, then its rows are read by id.
      const byIds = log.find((s) => /json_each/.test(sqlOf(s)));
      assert.ok(byIds, `${name}: the rows read by their ids`);
      const rowsText = (await planOf(env, byIds)).map((l) => l.detail).join("\n");
      assert.match(rowsText, /SEARCH inventory USING INTEGER PRIMARY KEY/, `${name}:\n${rowsText}`);
      assert.doesNotMatch(text, /^SCAN inventory$/m, `${name}: no scan of every row:\n${text}`);
      // The ids come in the index's order: every match is never sorted; a search sorts only the rows the
      // serials' suffix index found.
      if (!c.search_serial_number) {
        assert.doesNotMatch(text, /TEMP B-TREE/, `${name}: a sort of the ids:\n${text}`);
      }
      if (c.search_serial_number) {
        assert.match(
          text,
          /inventory_serial_suffixes USING PRIMARY KEY \(suffix>\? AND suffix<\?\)/,
          `${name}:\n${text}`,
        );
      } else assert.match(text, /USING (COVERING )?INDEX inventory_(item_serial|unit_serial|hidden_\w+)_idx/);
      if (c.include_hidden) assert.match(text, /MERGE \(UNION ALL\)/, `${name}:\n${text}`);
      // The Totals row (count and sums of every row of the type) is the figures kept by triggers, one
      // lookup, not a count of the rows: it is read again on the first read after each write (migration
      // 0027). (Read by the first case; the others find it cached.)
      const sums = log.find((s) => /sum\(("inventory"\.)?"quantity_out"\)/.test(sqlOf(s)));
      if (sums && !c.search_serial_number && c.inventory_type !== "" && !c.include_hidden) {
        totalsPlanned = true;
        const sumsText = (await planOf(env, sums)).map((l) => l.detail).join("\n");
        assert.match(
          sumsText,
          /^SEARCH inventory_type_totals USING PRIMARY KEY \(inventory_type=\? AND hidden=\?\)$/,
          `${name}:\n${sumsText}`,
        );
      }
    }
    assert.ok(totalsPlanned, "the Totals row was counted");
  }));

Deno.test("inventory list - under a large tenant's statistics, a page of every type walks items in order, sorting nothing", () =>
  withEnv(async (env) => {
    await manyRows(env);
    if (!isFileUrl(env.tenant.url)) return;
    // The statistics of the bench's sales tenant (100,106 rows of 321 items; `npm run bench`), with which the
    // planner, given no type to filter items by, read every row by serial and sorted them all.
    const stats: [string, string, string][] = [
      ["items", "items_number_unique", "321 1"],
      ["items", "items_description_idx", "321 3"],
      ["inventory", "inventory_item_serial_idx", "100106 44 44 1"],
      ["inventory", "inventory_hidden_serial_idx", "100106 1001 1 1"],
      ["inventory", "inventory_unit_serial_idx", "100106 1001 1001 1 1"],
      ["inventory", "inventory_item_unit_serial_unique", "100106 44 15 1"],
      ["inventory", "inventory_serial_idx", "100106 1"],
    ];
    for (const [tbl, idx, stat] of stats) {
      await env.tenant.client.execute({
        sql: "update sqlite_stat1 set stat = ? where tbl = ? and idx = ?",
        args: [stat, tbl, idx],
      });
    }
    await env.tenant.client.execute("analyze sqlite_schema");
    const user = await env.json("/api/admin/users/me", { token: await tokenWith(env, []) });
    for (const sortBy of ["item_number", "item_description"]) {
      const log: InStatement[] = [];
      await listInventory(recordingCtx(env, user, log), InventoryListQuery.parse({ sortBy, page: "30" }));
      const page = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
      const text = (await planOf(env, page)).map((l) => l.detail).join("\n");
      assert.match(text, /^SCAN items USING (COVERING )?INDEX items_(number_unique|description_idx)$/m, text);
      assert.doesNotMatch(text, /TEMP B-TREE/, `${sortBy}: ${text}`);
    }
  }));

Deno.test("inventory list - the serial search finds what LIKE finds, and follows edits and deletes", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["sales-admin"]);
    const unit = await makeUnit(env);
    const item = await makeItemOf(env, "Itemized");
    const rows = [];
    for (const serial_number of ["PV2-104233", "pv2-204233", 'SJ3 "Q" 9', "HU2-500", "Ünïcode-42"]) {
      rows.push(await makeRow(env, { item_id: item.id, business_unit_id: unit.id, serial_number }));
    }
    const find = async (term: string) =>
      ((await env.json(`${PATH}?rowsPerPage=-1&search_serial_number=${encodeURIComponent(term)}`, { token }))
        .results as { serial_number: string }[]).map((r) => r.serial_number).sort();
    assert.deepEqual(await find("04233"), ["PV2-104233", "pv2-204233"]);
    assert.deepEqual(await find('"Q"'), ['SJ3 "Q" 9']);
    assert.deepEqual(await find("e-4"), ["Ünïcode-42"]);
    assert.deepEqual(await find("-5"), ["HU2-500"], "two characters");
    assert.deepEqual(await find("v2-"), ["PV2-104233", "pv2-204233"], "either case");
    assert.deepEqual(await find("9"), ['SJ3 "Q" 9']);
    assert.deepEqual(await find("nope"), []);

    await send(env, token, "PUT", PATH, { id: rows[3].id, serial_number: "HU2-777" });
    assert.deepEqual(await find("HU2-5"), []);
    assert.deepEqual(await find("2-77"), ["HU2-777"]);
    await env.json(`${PATH}/${rows[0].id}`, { token, method: "DELETE" });
    assert.deepEqual(await find("04233"), ["pv2-204233"]);
    await env.tenant.client.execute(
      "INSERT INTO inventory_fts(inventory_fts, rank) VALUES ('integrity-check', 1)",
    );
    // The suffix index holds exactly every row's suffixes, folded as LIKE folds (ASCII letters).
    const fold = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const serials = (await env.tenant.client.execute("select id, serial_number from inventory")).rows;
    const want = serials.flatMap((r) => {
      const chars = [...String(r.serial_number)];
      return [...new Set(chars.map((_, i) => fold(chars.slice(i).join(""))))].map((x) => `${r.id} ${x}`);
    }).sort();
    const have =
      (await env.tenant.client.execute("select inventory_id, suffix from inventory_serial_suffixes"))
        .rows.map((r) => `${r.inventory_id} ${r.suffix}`).sort();
    assert.deepEqual(have, want);
  }));

Deno.test("inventory list - the total and the Totals row are counted once, until a write", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["sales-admin"]);
    const user = await env.json("/api/admin/users/me", { token });
    const unit = await makeUnit(env);
    const item = await makeItemOf(env, "Itemized");
    const row = await makeRow(env, { item_id: item.id, business_unit_id: unit.id, quantity: 7 });
    const list = async () => {
      const log: InStatement[] = [];
      const body = await listInventory(recordingCtx(env, user, log), InventoryListQuery.parse({}));
      // The count and sums: of the rows, or of the figures kept by triggers (the default filters).
      const counted = log.some((s) =>
        /\bcount\(\*\)|"inventory_type_totals"/.test(typeof s === "string" ? s : s.sql)
      );
      return { body, counted };
    };
    const first = await list();
    assert.ok(first.counted);
    assert.equal(first.body.totals.quantity, 7);
    const second = await list();
    assert.equal(second.counted, false, "the second call reads the cached figures");
    assert.deepEqual(second.body.totals, first.body.totals);
    // A sign-in (its throttle counters), a failed one and a sign-out (the revoked session) write no row a
    // list counts: the figures stay cached.
    const other = await env.login();
    const refused = await env.request("/api/login/access-token", {
      method: "POST",
      form: { username: ADMIN.email, password: "not the password" },
    });
    assert.equal(refused.status, 401);
    assert.equal((await env.request("/api/logout", { method: "POST", token: other })).status, 204);
    assert.equal((await list()).counted, false, "signing in and out kept the cached figures");
    await send(env, token, "PUT", PATH, { id: row.id, quantity: 9 });
    const third = await list();
    assert.ok(third.counted, "a write clears the cache");
    assert.equal(third.body.total, 1);
    assert.equal(third.body.totals.quantity, 9);
    assert.equal(third.body.totals.quantity_available, 9);
  }));

Deno.test("inventory location view - its counts are kept for each set of filters, until a write", () =>
  withEnv(async (env) => {
    const token = await tokenWith(env, ["sales-admin"]);
    const user = await env.json("/api/admin/users/me", { token });
    const unit = await makeUnit(env);
    const item = await makeItemOf(env, "Itemized");
    const rows = [];
    for (const serial_number of ["AB-1", "AB-2", "CD-3"]) {
      rows.push(
        await makeRow(env, { item_id: item.id, business_unit_id: unit.id, serial_number, quantity: 2 }),
      );
    }
    const list = async (query: Record<string, string>) => {
      const log: InStatement[] = [];
      const body = await listInventoryLocations(recordingCtx(env, user, log), LocationListQuery.parse(query));
      const counted = log.some((s) => /\bcount\(\*\)/.test(typeof s === "string" ? s : s.sql));
      kept = log.some((s) => /"inventory_type_totals"/.test(typeof s === "string" ? s : s.sql));
      // The page's statement is kept for each set of filters (`pageStatementOf`): its rows are this set's.
      const term = query.search_serial_number?.toUpperCase();
      assert.ok(body.results.every((r) => !term || r.serial_number?.includes(term)), JSON.stringify(query));
      return { total: body.total, counted };
    };
    let kept = false;
    assert.deepEqual(await list({ rowsPerPage: "1" }), { total: 3, counted: true });
    assert.ok(kept, "under the default filters, the Base rows are the figures kept by triggers");
    assert.deepEqual(await list({ rowsPerPage: "1", page: "2", sortBy: "location" }), {
      total: 3,
      counted: false,
    });
    // Other filters, other values: each counted once.
    assert.deepEqual(await list({ search_serial_number: "ab" }), { total: 2, counted: true });
    assert.equal(kept, false, "a search counts the rows");
    assert.deepEqual(await list({ search_serial_number: "cd" }), { total: 1, counted: true });
    assert.deepEqual(await list({ search_serial_number: "ab" }), { total: 2, counted: false });
    assert.deepEqual(await list({ business_unit_id: String(unit.id + 1000) }), { total: 0, counted: true });
    await send(env, token, "PUT", PATH, { id: rows[2].id, serial_number: "AB-3" });
    assert.deepEqual(
      await list({ search_serial_number: "ab" }),
      { total: 3, counted: true },
      "a write clears them",
    );
  }));

Deno.test("inventory location view - every page in each order is the same slice of the whole view", () =>
  withEnv(async (env) => {
    await manyRows(env);
    await env.tenant.client.execute(
      "update inventory set quantity_out_location = 1 where id % 7 = 0 and quantity - quantity_out >= 1",
    );
    await env.tenant.client.execute(`insert into inventory_locations (inventory_id, name, quantity)
      select id, 'Yard ' || char(65 + id % 3), 1 from inventory where quantity_out_location = 1`);
    const token = await tokenWith(env, []);
    const user = await env.json("/api/admin/users/me", { token });
    const path = "/api/sales/inventory-locations?inventory_type=Serialized";
    const keys = (body: { results: { key: string }[] }) => body.results.map((r) => r.key);
    for (const sortBy of [undefined, ...LOCATION_SORTS]) {
      for (const descending of sortBy ? [false, true] : [false]) {
        const q = sortBy ? `&sortBy=${sortBy}&descending=${descending}` : "";
        const whole = await env.json(`${path}${q}&rowsPerPage=-1`, { token });
        assert.ok(whole.results.some((r: { location: string }) => r.location === "Yard B"), "named rows");
        for (const page of [1, 2, 7, 33, Math.ceil(whole.results.length / 60)]) {
          const body = await env.json(`${path}${q}&rowsPerPage=60&page=${page}`, { token });
          assert.equal(body.total, whole.results.length, `${q}: total`);
          assert.deepEqual(keys(body), keys(whole).slice((page - 1) * 60, page * 60), `${q} page ${page}`);
        }
      }
    }
    // A page far in reads Base rows from an index, not every row (under a local ANALYZE's statistics).
    if (!isFileUrl(env.tenant.url)) return;
    const log: InStatement[] = [];
    await listInventoryLocations(
      recordingCtx(env, user, log),
      LocationListQuery.parse({ inventory_type: "Serialized", page: "20" }),
    );
    const page = log.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!;
    const text = (await planOf(env, page)).map((l) => l.detail).join("\n");
    assert.doesNotMatch(text, /^SCAN inventory$/m, text);
    assert.match(text, /USING COVERING INDEX inventory_item_serial_idx/, text);
    // The view's rows drive the join: not every matching inventory row, each looked up in the view.
    assert.match(text, /^SCAN v$/m, text);
    assert.doesNotMatch(text, /SEARCH v USING AUTOMATIC/, text);
    // A serial search lists its matches once, for the Base rows (named ones are checked on their rows), not
    // again over the joined rows.
    const searched: InStatement[] = [];
    await listInventoryLocations(
      recordingCtx(env, user, searched),
      LocationListQuery.parse({ inventory_type: "Serialized", search_serial_number: "3", page: "2" }),
    );
    const searchedText = (await planOf(
      env,
      searched.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!,
    ))
      .map((l) => l.detail).join("\n");
    assert.ok((searchedText.match(/inventory_serial_suffixes/g)?.length ?? 0) <= 1, searchedText);
    // By location, a page's Base rows are the table's own order: no sort of every match by id first.
    const byPlace: InStatement[] = [];
    await listInventoryLocations(
      recordingCtx(env, user, byPlace),
      LocationListQuery.parse({ inventory_type: "Serialized", page: "20", sortBy: "location" }),
    );
    const placeText = (await planOf(
      env,
      byPlace.find((s) => /\blimit\b/i.test(typeof s === "string" ? s : s.sql))!,
    ))
      .map((l) => l.detail).join("\n");
    assert.match(placeText, /^SCAN inventory$/m, placeText);
    // One sort: of the page's own rows with their named places.
    assert.equal(placeText.match(/TEMP B-TREE FOR ORDER BY/g)?.length, 1, placeText);
    // Every row by quantity or location is walked with no sort of every row before the first: by location the
    // Base rows by id, then (or, descending, after) the named rows by name; by quantity one statement SQLite
    // merges from its two parts, the Base rows in the order of an index.
    for (const sortBy of ["quantity", "location"] as const) {
      for (const descending of [false, true]) {
        const walks = viewWalk(
          recordingCtx(env, user, []),
          LocationListQuery.parse({ inventory_type: "Serialized", sortBy, descending: String(descending) }),
        );
        assert.equal(walks.length, sortBy === "quantity" ? 1 : 2);
        const plans = await Promise.all(walks.map((walk) => {
          const { sql, params } = new SQLiteSyncDialect().sqlToQuery(walk);
          return planOf(env, { sql, args: params as never });
        }));
        const base = plans[sortBy === "location" && descending ? 1 : 0];
        const text = base.map((l) => l.detail).join("\n");
        // The Base rows' part: a merge's left, or the whole statement.
        const merged = base.find((l) => l.detail === "MERGE (UNION ALL)");
        assert.equal(!!merged, sortBy === "quantity", text);
        const under = (id: number): PlanLine[] =>
          base.filter((l) => l.parent === id).flatMap((l) => [l, ...under(l.id)]);
        const left = merged ? base.find((l) => l.parent === merged.id && l.detail === "LEFT")! : undefined;
        const baseText = (left ? under(left.id) : base).map((l) => l.detail).join("\n");
        assert.doesNotMatch(baseText, /TEMP B-TREE/, `${sortBy}: ${text}`);
        assert.match(
          baseText,
          sortBy === "quantity" ? /INDEX inventory_hidden_available_idx/ : /^(SCAN|SEARCH) inventory\b/m,
          `${sortBy}: ${text}`,
        );
      }
    }
  }));
