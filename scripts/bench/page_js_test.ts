import assert from "node:assert/strict";
import { Assets } from "../../ui/assets.ts";
import {
  DIST,
  FIELD_DIALOGS,
  onDemand,
  pageJs,
  pagesFromManifest,
  readManifest,
  SHELL_ISLANDS,
  staticImports,
} from "./page_js.ts";

// Reads dist/ (`npm run build`, which `npm test` runs first).
const BUDGET = 100 * 1024;
const kb = (b: number) => (b / 1024).toFixed(1) + " KB";

Deno.test("Page JS - every page's first load (client, shell islands, its island, their static imports) is under 100 KB gzip", () => {
  const pages = pagesFromManifest();
  assert.ok(pages.length >= 15, `every page island measured (${pages.length})`);
  const over = pages.filter((p) => p.js.gzipBytes >= BUDGET).map((p) => `${p.island}: ${kb(p.js.gzipBytes)}`);
  assert.deepEqual(over, [], "issue 10: JS of the heaviest page < 100 KB gzip");
});

Deno.test("Page JS - every file a page loads at start is announced up front (modulepreload: no waterfall)", () => {
  const assets = new Assets(DIST);
  const manifest = readManifest();
  const announced = (island: string) =>
    new Set(
      [
        assets.client,
        ...assets.imports("ui/client.ts"),
        ...[...SHELL_ISLANDS, island].flatMap((src) => [assets.url(src), ...assets.imports(src)]),
      ].map((u) => u.replace(/^\//, "")),
    );
  for (const { island, js } of pagesFromManifest()) {
    const known = announced(island);
    assert.deepEqual(js.files.filter((f) => !known.has(f)), [], `${island}: found only by import`);
    assert.ok(manifest[island], island);
  }
});

Deno.test("Page JS - the field pages' dialogs come on demand: none is in its page's first load, each counted apart", () => {
  const manifest = readManifest();
  for (const [island, dialogs] of Object.entries(FIELD_DIALOGS)) {
    const first = pageJs(island);
    assert.ok(first.brotliBytes > 0 && first.brotliBytes < first.gzipBytes, `${island}: sent brotli`);
    for (const d of dialogs) {
      assert.ok(!first.files.includes(manifest[d].file), `${island} loads ${d} at start`);
      const more = onDemand(d, first.files);
      assert.ok(more.files.includes(manifest[d].file), d);
      assert.ok(more.files.every((f) => !first.files.includes(f)), `${d}: only what the page has not loaded`);
    }
  }
});

Deno.test("Page JS - dialogs, react-aria and zod are not in any page's first load", () => {
  const manifest = readManifest();
  const byFile = new Map(Object.values(manifest).map((e) => [e.file, e.src ?? e.file]));
  for (const { island, js } of pagesFromManifest()) {
    const names = js.files.map((f) => byFile.get(f) ?? f).join(" ");
    assert.doesNotMatch(
      names,
      /Form\.tsx|(?<!Loading)Dialog\.tsx|Confirm\.tsx/,
      `${island} loads a dialog at start`,
    );
    const code = js.files.map((f) => Deno.readTextFileSync(`${DIST}/${f}`)).join("\n");
    assert.doesNotMatch(code, /react-aria-[A-Za-z]+|data-rac/, `${island} loads react-aria at start`);
    assert.doesNotMatch(code, /ZodError/, `${island} loads zod at start`);
  }
});

Deno.test("Page JS - the shared chunk imports only React's, and no chunks import each other in a circle", () => {
  const manifest = readManifest();
  const chunks = Object.values(manifest).map((e) => e.file).filter((f) => f.endsWith(".js"));
  const common = chunks.filter((f) => /(^|\/)common-[\w-]+\.js$/.test(f));
  assert.equal(common.length, 1, `one shared chunk (vite.config.ts: sharedChunks): ${common.join(", ")}`);
  const react = chunks.filter((f) => /(^|\/)react-[\w-]+\.js$/.test(f));
  assert.equal(react.length, 1, `one React chunk: ${react.join(", ")}`);
  // The bundler's own helpers (CommonJS interop for React) are the one other file it may import.
  const allowed = new Set([...react, ...chunks.filter((f) => /(^|\/)rolldown-runtime-[\w-]+\.js$/.test(f))]);
  assert.deepEqual(staticImports(common[0]).filter((f) => !allowed.has(f)), [], "common imports only React");

  // A circle of static imports between chunks would make one of them run before its imports.
  const state = new Map<string, "open" | "done">();
  const circle = (f: string, path: string[]): string[] | undefined => {
    if (state.get(f) === "done") return undefined;
    if (state.get(f) === "open") return [...path, f];
    state.set(f, "open");
    for (const i of staticImports(f)) {
      const c = circle(i, [...path, f]);
      if (c) return c;
    }
    state.set(f, "done");
    return undefined;
  };
  for (const f of chunks) assert.equal(circle(f, [])?.join(" -> "), undefined);
});
