import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { withEnv } from "../scripts/testing/harness.ts";
import { Assets } from "./assets.ts";

Deno.test("document - the stylesheet comes inside the page's first response, after the script preloads", () =>
  withEnv(async (env) => {
    const token = await env.login();
    for (const [path, cookie] of [["/pt/jobs", `session=${token}`], ["/signin", ""]]) {
      const res = await env.request(path, { cookie });
      assert.equal(res.status, 200, path);
      const html = await res.text();
      const head = html.slice(0, html.indexOf("</head>"));
      // No stylesheet to fetch before the first paint: the rules themselves are in <head>.
      assert.doesNotMatch(head, /<link[^>]*rel="stylesheet"/, path);
      const style = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1] ?? "";
      assert.equal(style, env.services.assets.styles, path);
      assert.match(style, /\.topbar\{/, `${path}: the built stylesheet`);
      // The scripts are asked for before the browser reads the rules (React hoists the preloads).
      assert.ok(head.indexOf('rel="modulepreload"') < head.indexOf("<style>"), path);
    }
  }));

Deno.test("document - a '</style' in the built stylesheet cannot end the page's <style> early", () => {
  const dist = mkdtempSync(join(tmpdir(), "assets-"));
  try {
    mkdirSync(join(dist, ".vite"));
    mkdirSync(join(dist, "assets"));
    writeFileSync(
      join(dist, ".vite/manifest.json"),
      JSON.stringify({ "ui/styles.css": { file: "assets/styles-x.css" } }),
    );
    writeFileSync(join(dist, "assets/styles-x.css"), 'a::after{content:"</style><script>x()</script>"}');
    const css = new Assets(dist).styles;
    assert.doesNotMatch(css, /<\/style/i);
    assert.equal(css, 'a::after{content:"\\3c /style><script>x()</script>"}');
  } finally {
    rmSync(dist, { recursive: true });
  }
});
