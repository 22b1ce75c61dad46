import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ADMIN, withEnv } from "../../scripts/testing/harness.ts";
import { safeNext } from "../routes.tsx";
import { eq } from "drizzle-orm";
import { companies } from "../../db/schema/mod.ts";
import { makeCompany } from "../../db/factories.ts";

Deno.test("pages - a signed-out visit redirects to /signin remembering the path and query", () =>
  withEnv(async (env) => {
    const res = await env.request("/admin/accounts?page=2");
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/signin?next=%2Fadmin%2Faccounts%3Fpage%3D2");
  }));

Deno.test("pages - the sign-in form posts credentials and goes to the remembered path with a session cookie", () =>
  withEnv(async (env) => {
    const form = await env.request("/signin?next=%2Fadmin%2Faccounts");
    const html = await form.text();
    assert.equal(form.status, 200);
    assert.match(html, /<h1>Sign In<\/h1>/);
    assert.match(html, /name="next" value="\/admin\/accounts"/);
    const res = await env.request("/signin", {
      method: "POST",
      form: { email: ADMIN.email, password: ADMIN.password, next: "/admin/accounts" },
      headers: { origin: `http://${env.host}` },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/admin/accounts");
    assert.match(res.headers.get("set-cookie") ?? "", /session=.+HttpOnly/);
  }));

Deno.test("pages - a failed sign-in re-renders the form with the message and the email kept", () =>
  withEnv(async (env) => {
    const res = await env.request("/signin", {
      method: "POST",
      form: { email: ADMIN.email, password: "nope", next: "/" },
    });
    assert.equal(res.status, 401);
    const html = await res.text();
    assert.match(html, /Incorrect email or password/);
    assert.match(html, new RegExp(`value="${ADMIN.email}"`));
  }));

Deno.test("pages - next never leaves the site", () => {
  assert.equal(safeNext("//evil.example/x"), "/");
  assert.equal(safeNext("https://evil.example"), "/");
  assert.equal(safeNext("/\\evil.example"), "/");
  assert.equal(safeNext("/admin/accounts?x=1"), "/admin/accounts?x=1");
  assert.equal(safeNext(undefined), "/");
  // Browsers drop tabs and newlines in a URL and read a backslash as a slash: each would lead off the site.
  for (
    const bad of ["/\t/evil.example/phish", "/\n/x", "/\r\n/x", "/\u0000/x", "/x\\y", "/\u007f/x", "/ \t/x"]
  ) {
    assert.equal(safeNext(bad), "/", JSON.stringify(bad));
  }
  // What stays is a valid header value: non-ASCII and spaces percent-encoded.
  assert.equal(
    safeNext("/sales/tickets?search_customer=Zoë Co"),
    "/sales/tickets?search_customer=Zo%C3%AB%20Co",
  );
  assert.equal(safeNext("/pt/jobs#top"), "/pt/jobs#top");
});

Deno.test("pages - signing in with a hostile next goes to the start page, never another host, never a 500", () =>
  withEnv(async (env) => {
    for (
      const next of [
        "/\t/evil.example/phish",
        "/\n/x",
        "//evil.example",
        "/\\evil.example",
        "https://evil.example",
      ]
    ) {
      const res = await env.request("/signin", {
        method: "POST",
        form: { email: ADMIN.email, password: ADMIN.password, next },
        headers: { origin: `http://${env.host}` },
      });
      assert.equal(res.status, 303, JSON.stringify(next));
      assert.equal(res.headers.get("location"), "/", JSON.stringify(next));
      await res.body?.cancel();
    }
    const form = await env.request(`/signin?next=${encodeURIComponent("/\t/evil.example")}`);
    assert.match(await form.text(), /name="next" value="\/"/);
  }));

Deno.test("pages - signed in: the welcome page, and 404 'Error - page not found' for unknown paths", () =>
  withEnv(async (env) => {
    const cookie = `session=${await env.login()}`;
    const home = await env.request("/", { cookie });
    assert.equal(home.status, 200);
    const html = await home.text();
    assert.match(html, /Welcome Administrator!/);
    assert.match(html, /Choose an app:/);
    assert.match(html, /href="\/sales\/tickets"/);
    assert.match(html, /aria-label="Log out"/);
    const missing = await env.request("/no/such/page", { cookie });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Error - page not found/);
  }));

Deno.test("pages - an unknown host gets a 404 page, not a sign-in form", () =>
  withEnv(async (env) => {
    const res = await env.request("/signin", { host: "nobody.test" });
    assert.equal(res.status, 404);
    assert.match(await res.text(), /Error - page not found/);
  }));

Deno.test("pages - the shell remembers the last active app in a cookie", () =>
  withEnv(async (env) => {
    const cookie = `session=${await env.login()}`;
    const res = await env.request("/sales/tickets", { cookie });
    assert.match(res.headers.get("set-cookie") ?? "", /app=sales/);
    const home = await env.request("/", { cookie: `${cookie}; app=sales` });
    assert.match(await home.text(), /Sales &amp; Inventory menu/);
  }));

Deno.test("pages - the Sales menu is for the owner's staff, less what the settings switch off", () =>
  withEnv(async (env) => {
    await env.tenant.db.update(companies).set({
      settings: { apps: ["sales"], salesSideBar: { taxes: false } },
    })
      .where(eq(companies.id, 1));
    const cookie = `session=${await env.login()}`;
    const html = await (await env.request("/", { cookie: `${cookie}; app=sales` })).text();
    assert.match(html, /href="\/sales\/items"/);
    assert.doesNotMatch(html, /href="\/sales\/taxes"/);
    const customer = await makeCompany(env.tenant.db, { company_type: "customer_company" });
    const { token } = await env.userWithToken({ company_id: customer.id });
    const theirs = await (await env.request("/", { cookie: `session=${token}; app=sales` })).text();
    assert.doesNotMatch(theirs, /href="\/sales\/items"/);
    assert.match(theirs, /href="\/"/);
  }));

Deno.test("pages - the head preloads every chunk of the page's islands and of the client: no import waterfall", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const html = await (await env.request("/pt/jobs", { cookie: `session=${token}` })).text();
    const head = html.slice(0, html.indexOf("</head>"));
    const preloaded = new Set(
      [...head.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
    );
    const assets = env.services.assets;
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(islands.includes("ui/pt/jobs/islands/JobsTable.tsx"));
    for (const src of ["ui/client.ts", ...islands]) {
      for (const url of assets.imports(src)) assert.ok(preloaded.has(url), `${src} imports ${url}`);
      if (src !== "ui/client.ts") assert.ok(preloaded.has(assets.url(src)), src);
    }
    // Only this page's islands: another page's table is not fetched.
    assert.ok(![...preloaded].some((u) => u.includes("InspectionsTable")));
    // The client (the largest file) is asked for first, so it downloads while the small chunks wait.
    assert.equal(head.match(/<link rel="modulepreload" href="([^"]+)"/)?.[1], assets.client);
  }));

Deno.test("pages - assets are sent as the build compressed them, brotli first, cached for a year; others 404", () =>
  withEnv(async (env) => {
    // The largest script every page loads (React's chunk, which the client imports): big enough that
    // compression must show.
    const { assets } = env.services;
    const client = [assets.client, ...assets.imports("ui/client.ts")]
      .map((url) => ({ url, size: Deno.statSync(`dist${url}`).size }))
      .sort((a, b) => b.size - a.size)[0].url;
    const get = (path: string, encoding?: string) =>
      env.request(path, { headers: encoding === undefined ? {} : { "accept-encoding": encoding } });
    const plain = await get(client);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(plain.headers.get("content-type") ?? "", /^text\/javascript/);
    const text = await plain.text();
    assert.ok(text.length > 10_000);
    const br = await get(client, "gzip, deflate, br, zstd");
    assert.equal(br.headers.get("content-encoding"), "br");
    assert.equal(br.headers.get("vary"), "Accept-Encoding");
    const packed = new Uint8Array(await br.arrayBuffer());
    assert.ok(packed.byteLength < text.length / 2);
    assert.equal(new TextDecoder().decode(brotliDecompressSync(packed)), text);
    const gz = await get(client, "gzip;q=1, br;q=0");
    assert.equal(gz.headers.get("content-encoding"), "gzip");
    assert.equal(new TextDecoder().decode(gunzipSync(new Uint8Array(await gz.arrayBuffer()))), text);
    const css = await get(env.services.assets.stylesheet, "br");
    assert.match(css.headers.get("content-type") ?? "", /^text\/css/);
    await css.body?.cancel();
    for (
      const path of ["/assets/nope.js", "/assets/..%2F.vite%2Fmanifest.json", "/assets/.vite/manifest.json"]
    ) {
      const res = await get(path, "br");
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  }));
