import assert from "node:assert/strict";
import { etagOf, ifMatchPasses } from "./preconditions.ts";

Deno.test("ifMatchPasses - no header, *, or the record's strong tag passes; weak and other tags do not", () => {
  assert.equal(etagOf(3), '"3"');
  assert.equal(ifMatchPasses(undefined, 3), true);
  assert.equal(ifMatchPasses("", 3), true);
  assert.equal(ifMatchPasses("*", 3), true);
  assert.equal(ifMatchPasses('"3"', 3), true);
  assert.equal(ifMatchPasses('"1", "3"', 3), true);
  assert.equal(ifMatchPasses('"2"', 3), false);
  assert.equal(ifMatchPasses('W/"3"', 3), false, "strong comparison: a weak tag never matches");
  assert.equal(ifMatchPasses("3", 3), false, "an unquoted version is not an entity tag");
});
