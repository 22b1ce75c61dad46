import assert from "node:assert/strict";
import { z } from "zod";
import { issuesOf } from "./form.ts";

Deno.test("issuesOf - the first message of each field, by path or by top-level field; none when valid", () => {
  const schema = z.object({
    name: z.string().min(1, "Required").max(3, "Too long"),
    rows: z.array(z.object({ price: z.number({ error: "Must be a number" }) })),
  });
  const bad = schema.safeParse({ name: "", rows: [{ price: 1 }, { price: "x" }] });
  assert.deepEqual(issuesOf(bad), { name: "Required", "rows.1.price": "Must be a number" });
  assert.deepEqual(issuesOf(bad, { top: true }), { name: "Required", rows: "Must be a number" });
  const twice = z.object({ code: z.string().min(5, "Too short").regex(/^\d+$/, "Digits only") })
    .safeParse({ code: "ab" });
  assert.deepEqual(issuesOf(twice), { code: "Too short" }, "the first message wins");
  assert.deepEqual(issuesOf(schema.safeParse({ name: "ab", rows: [] })), {});
});
