import assert from "node:assert/strict";
import { withEnv } from "../scripts/testing/harness.ts";
import { makeCompany } from "../db/factories.ts";
import { can, POLICY, type PolicyUser, requireAbility } from "./policy.ts";
import { menuFor } from "../ui/shell/menus.ts";
import { pageAbility } from "../ui/lib/page_guard.ts";
import type { CurrentUser } from "../api/lib/context.ts";

const user = (
  permissions: string[],
  company: Partial<PolicyUser["company"]> = {},
  over = {},
): PolicyUser => ({
  id: 7,
  permissions,
  account_type: "General",
  company: { isOwner: true, company_type: "inspection_company", settings: {}, ...company },
  ...over,
});
const customer = { isOwner: false, company_type: "customer_company" };

Deno.test("policy - abilities combine roles, permissions and company conditions", () => {
  assert.equal(can(user([]), "sales.read"), true);
  assert.equal(can(user(["sales-admin"], customer), "sales.read"), false, "another company's user");
  assert.equal(can(user(["sales-admin"]), "sales.admin"), true);
  assert.equal(can(user(["sales-admin"], customer), "sales.admin"), false, "a role does not cross companies");
  assert.equal(can(user(["approval-authority"]), "sales.approve"), true);
  assert.equal(can(user([]), "sales.approve"), false);
  assert.equal(can(user(["user-admin"]), "users.allCompanies"), true);
  assert.equal(can(user(["user-admin"], customer), "users.allCompanies"), false);
  assert.equal(can(user([], { company_type: "operator_company" }), "pt.write"), false);
  assert.equal(can(user([], {}, { account_type: "Data-Entry" }), "jobs.create"), false);
  assert.equal(can(user([]), "jobs.create"), true);
  assert.equal(can(user([]), "sales.dashboard"), false);
  assert.equal(
    can(user([], { settings: { salesSideBar: { salesDashboardUsers: ["7"] } } }), "sales.dashboard"),
    true,
  );
  assert.equal(can(undefined, "sales.read"), false);
  // Refusals are sentences; an outsider hears that Sales is the company's own.
  assert.throws(() => requireAbility(user([]), "sales.admin"), /You do not have permission to do that\./);
  assert.throws(
    () => requireAbility(user(["sales-admin"], customer), "sales.admin"),
    /Sales & Inventory is for the company's own staff\./,
  );
  for (const [name, a] of Object.entries(POLICY)) assert.equal(typeof a.rule, "function", name);
});

Deno.test("policy - every drawer entry and page is gated by the same ability", () => {
  const asUser = (u: PolicyUser) => ({ ...u, roles: u.permissions }) as unknown as CurrentUser;
  const hrefs = (u: PolicyUser) => menuFor("sales", asUser(u)).map((e) => e.href);
  const staff = hrefs(user([]));
  const admin = hrefs(user(["sales-admin"]));
  assert.equal(staff.includes("/sales/templates"), false);
  assert.equal(admin.includes("/sales/templates"), true);
  assert.deepEqual(
    hrefs(user(["sales-admin"], customer)),
    ["/pt/jobs", "/"],
    "an outsider sees only the way back to Pressure Testing and Apps",
  );
  // Each menu entry with a page guard needs exactly the ability the page guard asks for.
  for (const e of menuFor("sales", asUser(user(["sales-admin", "user-admin"])))) {
    const page = pageAbility(e.href);
    if (page) assert.ok(can(user(["sales-admin", "user-admin"]), page), e.href);
  }
  assert.equal(pageAbility("/sales/templates"), "sales.admin");
  assert.equal(pageAbility("/sales/tickets/12"), "sales.read");
  assert.equal(pageAbility("/admin/companies"), "companies.view");
  assert.equal(pageAbility("/pt/parts"), "parts.view");
  assert.equal(pageAbility("/pt/jobs"), undefined);
  assert.equal(pageAbility("/salesy"), undefined);
});

const cookie = (token: string) => ({ cookie: `session=${token}` });

Deno.test("policy - the page guard: templates send non-admins to /signin, other sales pages send outsiders to /", () =>
  withEnv(async (env) => {
    const staff = await env.userWithToken({ permissions: [] });
    let res = await env.request("/sales/templates", cookie(staff.token));
    assert.deepEqual(
      [res.status, res.headers.get("location")],
      [302, "/signin?next=%2F%3Frefused%3D%252Fsales%252Ftemplates"],
    );
    // /signin sends a signed-in user on to the welcome page, which says why.
    res = await env.request(res.headers.get("location")!, cookie(staff.token));
    assert.deepEqual([res.status, res.headers.get("location")], [302, "/?refused=%2Fsales%2Ftemplates"]);
    const welcome = await (await env.request(res.headers.get("location")!, cookie(staff.token))).text();
    assert.match(
      welcome,
      /role="alert">You cannot open \/sales\/templates: You do not have permission to do that\.</,
    );
    // A notice is only ever about a page the user may indeed not open.
    const admin0 = await env.login();
    const plain = await (await env.request("/?refused=%2Fsales%2Ftemplates", cookie(admin0))).text();
    assert.doesNotMatch(plain, /You cannot open/);
    // The notice names the section, never the URL's own text.
    const crafted = await (await env.request(
      `/?refused=${encodeURIComponent("/sales/templates/Call 555-0100 to unlock")}`,
      cookie(staff.token),
    )).text();
    assert.match(crafted, /You cannot open \/sales\/templates: /);
    assert.doesNotMatch(crafted, /555-0100/);
    res = await env.request("/sales/taxes", cookie(staff.token));
    assert.equal(res.status, 200);
    const html = await res.text();
    // Non-admins get no New (nor Edit or Delete) on taxes: the island is told by the policy.
    assert.doesNotMatch(html, />New</);
    const cat = await (await env.request("/sales/inventory-categories", cookie(staff.token))).text();
    assert.doesNotMatch(cat, />New</);
    const admin = await env.login();
    assert.match(await (await env.request("/sales/taxes", cookie(admin))).text(), />New</);
    assert.match(await (await env.request("/sales/inventory-categories", cookie(admin))).text(), />New</);

    const outsiderCompany = await makeCompany(env.tenant.db);
    const outsider = await env.userWithToken({
      company_id: outsiderCompany.id,
      permissions: ["sales-admin"],
    });
    for (const path of ["/sales/tickets", "/sales/tickets/1", "/sales/inventory-audit", "/sales/dashboard"]) {
      res = await env.request(path, cookie(outsider.token));
      assert.deepEqual(
        [res.status, res.headers.get("location")],
        [302, `/?refused=${encodeURIComponent(path)}`],
        path,
      );
    }
  }));
