import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany } from "../../../db/factories.ts";
import { companies } from "../../../db/schema/mod.ts";

const cookie = (token: string) => ({ cookie: `session=${token}` });
const DASHBOARD = "https://dash.example.com/embed/sales?board=7&tab=1";

const setSettings = (env: TestEnv, settings: Record<string, unknown>) =>
  env.tenant.db.update(companies).set({ settings }).where(eq(companies.id, 1));

const iframes = (html: string) => [...html.matchAll(/<iframe[^>]*>/g)].map((m) => m[0]);

/** The page's CSP, if any, must let the frame load the dashboard's origin. */
function assertFrameAllowed(res: Response, origin: string) {
  const csp = res.headers.get("content-security-policy");
  if (!csp) return;
  // Frames follow frame-src, else child-src, else default-src.
  const directives = csp.split(";").map((d) => d.trim());
  const frameSrc = ["frame-src", "child-src", "default-src"]
    .map((name) => directives.find((d) => d.startsWith(`${name} `)))
    .find((d) => d !== undefined);
  assert.ok(frameSrc, `CSP without frame-src allows frames: ${csp}`);
  assert.ok(frameSrc.split(/\s+/).includes(origin), `CSP ${csp} blocks ${origin}`);
}

Deno.test("dashboard - a listed user sees the configured dashboard framed; others a blank page", () =>
  withEnv(async (env) => {
    const { user: listed, token: listedToken } = await env.userWithToken({ name: "Dana Dash" });
    const { user: other, token: otherToken } = await env.userWithToken({ name: "Otto Other" });
    await setSettings(env, {
      apps: ["sales"],
      salesSideBar: { salesDashboardUsers: [listed.id, 99999], salesDashboardURL: DASHBOARD },
    });

    const res = await env.request("/sales/dashboard", cookie(listedToken));
    assert.equal(res.status, 200);
    assertFrameAllowed(res, "https://dash.example.com");
    const html = await res.text();
    const [frame, ...more] = iframes(html);
    assert.equal(more.length, 0);
    assert.ok(frame, "the listed user gets a frame");
    assert.match(frame, /title="Sales Dashboard"/);
    assert.match(frame, /src="https:\/\/dash\.example\.com\/embed\/sales\?board=7&amp;tab=1"/);
    assert.match(frame, /referrerpolicy="no-referrer"/i);
    assert.match(frame, /sandbox="allow-scripts allow-same-origin allow-popups allow-forms"/);
    assert.match(html, /<title>Sales Dashboard - Back Office<\/title>/);
    // The listed user's drawer offers the dashboard; the other user's does not.
    assert.match(html, /href="\/sales\/dashboard"/);

    const blank = await env.request("/sales/dashboard", cookie(otherToken));
    assert.equal(blank.status, 200);
    const blankHtml = await blank.text();
    assert.deepEqual(iframes(blankHtml), []);
    assert.doesNotMatch(blankHtml, /dash\.example\.com/);
    assert.match(blankHtml, /<section class="page" aria-label="Sales Dashboard"><\/section>/);
    assert.doesNotMatch(blankHtml, /href="\/sales\/dashboard"/);
    assert.notEqual(other.id, listed.id);

    // Ids may be stored as strings; the sales-side-bar switch can hide the drawer entry.
    await setSettings(env, {
      salesSideBar: {
        salesDashboardUsers: [String(other.id)],
        salesDashboardURL: DASHBOARD,
        dashboard: false,
      },
    });
    const asString = await (await env.request("/sales/dashboard", cookie(otherToken))).text();
    assert.equal(iframes(asString).length, 1);
    assert.doesNotMatch(asString, /href="\/sales\/dashboard"/);
    assert.deepEqual(iframes(await (await env.request("/sales/dashboard", cookie(listedToken))).text()), []);
  }));

Deno.test("dashboard - only http(s) addresses are framed", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken();
    const framed = async (url: unknown, where: "bar" | "top" = "bar") => {
      await setSettings(env, {
        salesDashboardURL: where === "top" ? url : undefined,
        salesSideBar: {
          salesDashboardUsers: [user.id],
          ...(where === "bar" ? { salesDashboardURL: url } : {}),
        },
      });
      const res = await env.request("/sales/dashboard", cookie(token));
      assert.equal(res.status, 200);
      return iframes(await res.text());
    };
    for (
      const bad of [
        "javascript:alert(document.cookie)",
        " JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "/relative/path",
        "not a url",
        "",
        42,
        null,
      ]
    ) {
      assert.deepEqual(await framed(bad), [], `framed ${JSON.stringify(bad)}`);
    }
    const [http] = await framed("http://bi.internal:8080/board");
    assert.match(http, /src="http:\/\/bi\.internal:8080\/board"/);
    // The URL may also sit at the top of the settings, next to salesSideBar.
    const [top] = await framed("https://top.example.com/d", "top");
    assert.match(top, /src="https:\/\/top\.example\.com\/d"/);
    assert.deepEqual(await framed("javascript:alert(1)", "top"), []);
  }));

Deno.test("dashboard - users of other companies go to the welcome page", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, {
      name: "Customer Co",
      company_type: "customer_company",
    });
    const { user, token } = await env.userWithToken({ company_id: customer.id });
    await env.tenant.db.update(companies).set({
      settings: { salesSideBar: { salesDashboardUsers: [user.id], salesDashboardURL: DASHBOARD } },
    }).where(eq(companies.id, customer.id));
    const res = await env.request("/sales/dashboard", cookie(token));
    assert.equal(res.status, 302);
    assert.match(res.headers.get("location")!, /^\/(\?refused=|$)/);
    const signedOut = await env.request("/sales/dashboard");
    assert.equal(signedOut.status, 302);
    assert.match(signedOut.headers.get("location") ?? "", /^\/signin\?next=%2Fsales%2Fdashboard/);
  }));
