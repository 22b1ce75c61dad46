import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeItem } from "../../../db/factories.ts";

Deno.test("item picker search - every word in the item number or the description, of one type", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    await makeItem(db, {
      item_number: "PUMP-3",
      item_description: "Triplex pump",
      inventory_type: "Serialized",
    });
    await makeItem(db, {
      item_number: "SW-2",
      item_description: "2in swivel 50%",
      inventory_type: "Serialized",
    });
    await makeItem(db, { item_number: "PUMP-9", item_description: "Pump skid", inventory_type: "Itemized" });
    const numbers = async (query: string) =>
      ((await env.json(`/api/sales/items?${query}`, { token })).results as { item_number: string }[])
        .map((i) => i.item_number);
    const picker = (text: string) =>
      numbers(`inventory_type=Serialized&search_multi=${encodeURIComponent(text)}`);

    assert.deepEqual(await picker("pump-3"), ["PUMP-3"], "by item number, any case");
    assert.deepEqual(await picker("triplex"), ["PUMP-3"], "by description");
    assert.deepEqual(await picker("pump"), ["PUMP-3"], "only the asked type");
    assert.deepEqual(await picker("sw swivel"), ["SW-2"], "words may come from both");
    assert.deepEqual(await picker("sw pump"), [], "every word must match");
    assert.deepEqual(await picker("50%"), ["SW-2"], "wildcards are literal");
    assert.deepEqual(await picker("  "), ["PUMP-3", "SW-2"], "blank is no filter");
    assert.deepEqual(
      await numbers("search_item_description=pump-3"),
      [],
      "the items page's own filters are unchanged",
    );
    await env.json(`/api/sales/items?search_multi=${"x".repeat(201)}`, { token, status: 422 });
  }));
