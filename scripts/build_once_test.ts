import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inputsHash } from "./build_once.ts";

Deno.test("build once - the inputs' hash follows the browser code's sources and the build's settings, not tests", () => {
  const root = Deno.makeTempDirSync();
  try {
    mkdirSync(join(root, "ui", "pt"), { recursive: true });
    writeFileSync(join(root, "ui", "pt", "Page.tsx"), "export const a = 1;");
    writeFileSync(join(root, "vite.config.ts"), "export default {};");
    const first = inputsHash(root);
    assert.equal(inputsHash(root), first, "the same files, the same hash");
    writeFileSync(join(root, "ui", "pt", "page_test.ts"), "// a test");
    assert.equal(inputsHash(root), first, "a test file is not built");
    writeFileSync(join(root, "ui", "pt", "Page.tsx"), "export const a = 2;");
    const edited = inputsHash(root);
    assert.notEqual(edited, first, "an edited source");
    writeFileSync(join(root, "vite.config.ts"), "export default { base: '/' };");
    assert.notEqual(inputsHash(root), edited, "an edited build setting");
    mkdirSync(join(root, "lib"));
    writeFileSync(join(root, "lib", "format.ts"), "export {};");
    assert.notEqual(inputsHash(root), edited, "a new file");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
