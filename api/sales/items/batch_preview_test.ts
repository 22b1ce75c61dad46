import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeItem } from "../../../db/factories.ts";
import { items } from "../../../db/schema/mod.ts";
import type { ItemBatchPreview } from "./schemas.ts";

const PATH = "/api/sales/items/batch/preview";

Deno.test("items batch preview - says which rows replace a stored item and how, writes nothing", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const flow = await makeCategory(env.tenant.db, { model: "Item Category", name: "Flow Iron" });
    await makeItem(env.tenant.db, {
      item_number: "PV-2",
      item_description: "2in plug valve",
      rate: 40,
      isTaxable: true,
      category_id: flow.id,
    });
    const answer = await env.json<ItemBatchPreview>(PATH, {
      method: "POST",
      token,
      json: [
        {
          item_number: "pv-2",
          item_description: "2in plug valve",
          rate: "45",
          isTaxable: "",
          item_category: "",
        },
        { item_number: "PV-3", item_description: "3in plug valve" },
      ],
    });
    assert.deepEqual([answer.created, answer.updated, answer.message], [
      1,
      1,
      "1 item to create, 1 to replace",
    ]);
    assert.deepEqual(answer.rows[0], {
      n: 1,
      item_number: "PV-2",
      existing: true,
      // A blank cell clears the field; the unchanged description is not listed.
      changes: [
        { field: "Rate", before: "40", after: "45" },
        { field: "Taxable", before: "Yes", after: "No" },
        { field: "Category", before: "Flow Iron", after: "(blank)" },
      ],
    });
    assert.deepEqual(answer.rows[1], { n: 2, item_number: "PV-3", existing: false, changes: [] });
    const stored = await env.tenant.db.select().from(items);
    assert.deepEqual(stored.map((i) => [i.item_number, i.rate]), [["PV-2", 40]], "nothing written");

    // The upload's own checks and refusals, before any preview.
    const bad = await env.json(PATH, {
      method: "POST",
      token,
      json: [{ item_number: "X", rate: "cheap" }],
      status: 422,
    });
    assert.equal(bad.errors[0].path, "rows.1.rate");
    const clerk = await env.userWithToken({ permissions: [] });
    await env.json(PATH, { method: "POST", token: clerk.token, json: [{ item_number: "X" }], status: 403 });
  }));
