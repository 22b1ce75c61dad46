import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { ADMIN, type TestEnv, withEnv } from "../../../scripts/testing/harness.ts";
import { makeCompany, makeJob, makeUser } from "../../../db/factories.ts";
import { users } from "../../../db/schema/mod.ts";

const OWNER_ID = 1;

/** A signed-in user holding exactly these roles (default: of the owner company). */
async function tokenWith(env: TestEnv, permissions: string[], company_id = OWNER_ID) {
  return await env.userWithToken({ permissions, company_id });
}

function form(over: Record<string, unknown> = {}) {
  return {
    name: "Casey Field",
    email: `casey-${crypto.randomUUID().slice(0, 8)}@example.test`,
    password: "long-enough-1",
    phone: "555-0199",
    account_type: "General",
    company_id: OWNER_ID,
    permissions: ["inspector"],
    ...over,
  };
}

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

async function row(env: TestEnv, id: number) {
  return (await env.tenant.db.select().from(users).where(eq(users.id, id)))[0];
}

Deno.test("users - a user-admin creates, reads, updates and deletes a user", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["user-admin"]);
    const jobIds = [(await makeJob(env.tenant.db)).id, (await makeJob(env.tenant.db)).id];
    const body = form({ email: "New.Person@Example.test", isSalesRep: true, jobs: jobIds });
    const created = await env.json("/api/admin/users", { token, method: "POST", json: body });
    assert.equal(created.message, "User created");
    assert.equal(created.email, "new.person@example.test");
    assert.equal(created.company.isOwner, true);
    assert.deepEqual(created.roles, ["inspector"]);
    assert.deepEqual(created.jobs, jobIds);
    assert.equal(created.password_hash, undefined);
    assert.equal(created.session_version, undefined);
    // the new user can sign in with the password given
    await env.login("new.person@example.test", "long-enough-1");

    const list = await env.json("/api/admin/users?search_name=new.person", { token });
    assert.equal(list.total, 1);
    assert.equal(list.results[0].id, created.id);

    const updated = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: { ...body, id: created.id, password: "", name: "Renamed Person", account_type: "Job-Admin" },
    });
    assert.equal(updated.message, "User updated");
    assert.equal(updated.name, "Renamed Person");
    assert.equal(updated.account_type, "Job-Admin");
    await env.login("new.person@example.test", "long-enough-1"); // empty password: unchanged

    const deleted = await env.json("/api/admin/users", { token, method: "DELETE", json: { id: created.id } });
    assert.deepEqual(deleted, { message: "User deleted" });
    assert.equal(await row(env, created.id), undefined);
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: created.id }, status: 404 });
  }));

Deno.test("users - missing fields are 422 with the user form's messages", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["user-admin"]);
    const res = await env.json("/api/admin/users", { token, method: "POST", json: {}, status: 422 });
    const byPath = Object.fromEntries(
      res.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
    );
    assert.deepEqual(byPath, {
      name: "Name is Required",
      email: "Valid Email Address is Required",
      phone: "Phone number is Required",
      account_type: "Account Type is Required",
      company_id: "Company is required",
    });
    const badEmail = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ email: "not-an-email" }),
      status: 422,
    });
    assert.deepEqual(badEmail.errors, [{ path: "email", message: "Valid Email Address is Required" }]);
    const shortPw = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ password: "short" }),
      status: 422,
    });
    assert.deepEqual(shortPw.errors, [{
      path: "password",
      message: "Password must be at least 8 characters",
    }]);
    const noPw = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ password: "" }),
      status: 422,
    });
    assert.deepEqual(noPw.errors, [{ path: "password", message: "Password must be at least 8 characters" }]);
    const noCompany = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ company_id: 999999 }),
      status: 422,
    });
    assert.deepEqual(noCompany.errors, [{ path: "company_id", message: "Company is required" }]);
    const badType = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ account_type: "Boss" }),
      status: 422,
    });
    assert.deepEqual(badType.errors, [{ path: "account_type", message: "Account Type is Required" }]);
  }));

Deno.test("users - an email is unique whatever its case and cannot change once the user exists", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["user-admin"]);
    const existing = await makeUser(env.tenant.db, { company_id: OWNER_ID, email: "taken@example.test" });
    const dup = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ email: "TAKEN@example.test" }),
      status: 409,
    });
    assert.equal(dup.detail, "A user with this email already exists.");
    const changed = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: existing.id, email: "other@example.test", password: "" }),
      status: 422,
    });
    assert.deepEqual(changed.errors, [{ path: "email", message: "Email cannot be changed" }]);
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: existing.id, email: "Taken@Example.test", password: "" }),
    });
  }));

Deno.test("users - a General user can neither create, edit nor delete users", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["inspector", "job-admin"]);
    const other = await makeUser(env.tenant.db, { company_id: OWNER_ID });
    await env.json("/api/admin/users", { token, method: "POST", json: form(), status: 403 });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: other.id, email: other.email, password: "" }),
      status: 403,
    });
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: other.id }, status: 403 });
    assert.ok(await row(env, other.id));
  }));

Deno.test("users - only a superuser grants, removes or touches the superuser role", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["user-admin"]);
    const grant = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ permissions: ["superuser"] }),
      status: 403,
    });
    assert.equal(grant.detail, "Only a superuser can grant or remove the superuser role.");
    const plain = await makeUser(env.tenant.db, { company_id: OWNER_ID });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: plain.id, email: plain.email, password: "", permissions: ["superuser"] }),
      status: 403,
    });
    const boss = await makeUser(env.tenant.db, { company_id: OWNER_ID, permissions: ["superuser"] });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: boss.id, email: boss.email, password: "", permissions: [] }),
      status: 403,
    });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: boss.id, email: boss.email, password: "taken-over-1", permissions: ["superuser"] }),
      status: 403,
    });
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: boss.id }, status: 403 });
    assert.deepEqual((await row(env, plain.id)).permissions, []);
    assert.deepEqual((await row(env, boss.id)).permissions, ["superuser"]);

    const superToken = await env.login();
    const granted = await env.json("/api/admin/users", {
      token: superToken,
      method: "POST",
      json: form({
        id: plain.id,
        email: plain.email,
        password: "",
        permissions: ["superuser", "user-admin"],
      }),
    });
    assert.deepEqual(granted.roles, ["superuser", "user-admin"]);
  }));

Deno.test("users - nobody deactivates or deletes themselves", () =>
  withEnv(async (env) => {
    const { user, token } = await tokenWith(env, ["user-admin"]);
    const deact = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({
        id: user.id,
        email: user.email,
        password: "",
        permissions: ["user-admin"],
        active: false,
      }),
      status: 409,
    });
    assert.ok(deact.detail);
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: user.id }, status: 409 });
    assert.equal((await row(env, user.id)).active, true);
  }));

Deno.test("users - a customer company's user-admin manages only their own company's users", () =>
  withEnv(async (env) => {
    const mine = await makeCompany(env.tenant.db, { name: "Mine Co" });
    const theirs = await makeCompany(env.tenant.db, { name: "Theirs Co" });
    const { token } = await tokenWith(env, ["user-admin"], mine.id);
    const colleague = await makeUser(env.tenant.db, { company_id: mine.id, name: "Colleague" });
    const stranger = await makeUser(env.tenant.db, { company_id: theirs.id, name: "Stranger" });

    const list = await env.json("/api/admin/users?rowsPerPage=-1", { token });
    assert.ok(list.results.every((u: { company_id: number }) => u.company_id === mine.id));
    assert.equal(list.total, 2);
    assert.equal((await env.json(`/api/admin/users?company_id=${theirs.id}`, { token })).total, 0);

    await env.json("/api/admin/users", { token, method: "POST", json: form({ company_id: mine.id }) });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ company_id: theirs.id }),
      status: 403,
    });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: colleague.id, email: colleague.email, password: "", company_id: theirs.id }),
      status: 403,
    });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: form({ id: stranger.id, email: stranger.email, password: "", company_id: mine.id }),
      status: 404,
    });
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: stranger.id }, status: 404 });
    await env.json("/api/admin/users", { token, method: "DELETE", json: { id: colleague.id } });
    assert.equal((await row(env, stranger.id)).company_id, theirs.id);
  }));

Deno.test("users - the owner's user-admin sees every user; anyone else only their own company's", () =>
  withEnv(async (env) => {
    const customer = await makeCompany(env.tenant.db, { name: "Cust Co" });
    await makeUser(env.tenant.db, { company_id: customer.id, name: "Cust Person" });
    const admin = await tokenWith(env, ["user-admin"]);
    const all = await env.json("/api/admin/users?rowsPerPage=-1", { token: admin.token });
    assert.ok(names(all).includes("Cust Person"));
    assert.ok(names(all).includes(admin.user.name));

    const general = await tokenWith(env, ["inspector"]);
    const own = await env.json("/api/admin/users?rowsPerPage=-1", { token: general.token });
    assert.ok(!names(own).includes("Cust Person"));
    assert.ok(own.results.every((u: { company_id: number }) => u.company_id === OWNER_ID));

    const cust = await tokenWith(env, [], customer.id);
    const theirs = await env.json("/api/companyusers?rowsPerPage=-1", { token: cust.token });
    assert.deepEqual(names(theirs).sort(), ["Cust Person", cust.user.name].sort());
    const mineToo = await env.json("/api/companyusers?search_name=cust person", { token: admin.token });
    assert.equal(mineToo.total, 0, "companyusers is the caller's own company, even for the owner's admin");
  }));

Deno.test("users - search matches name, email, phone or company and takes wildcards literally", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const co = await makeCompany(env.tenant.db, { name: "Basin Flow Partners" });
    await makeUser(env.tenant.db, { company_id: co.id, name: "Pat 50% Off", phone: "432-555-0001" });
    await makeUser(env.tenant.db, { company_id: OWNER_ID, name: "Pat 500", email: "pat500@example.test" });
    assert.deepEqual(names(await env.json("/api/admin/users?search_name=50%25", { token })), ["Pat 50% Off"]);
    assert.equal((await env.json("/api/admin/users?search_name=%25", { token })).total, 1);
    assert.deepEqual(names(await env.json("/api/admin/users?search_name=basin flow", { token })), [
      "Pat 50% Off",
    ]);
    assert.deepEqual(names(await env.json("/api/admin/users?search_name=432-555", { token })), [
      "Pat 50% Off",
    ]);
    assert.deepEqual(names(await env.json("/api/admin/users?search_name=PAT500@", { token })), ["Pat 500"]);
  }));

Deno.test("users - the list pages, counts and sorts by name, email or company", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const a = await makeCompany(env.tenant.db, { name: "Aaa Co" });
    const z = await makeCompany(env.tenant.db, { name: "Zzz Co" });
    await makeUser(env.tenant.db, { company_id: z.id, name: "sort-b", email: "a-sort@example.test" });
    await makeUser(env.tenant.db, { company_id: a.id, name: "sort-c", email: "b-sort@example.test" });
    await makeUser(env.tenant.db, { company_id: z.id, name: "Sort-A", email: "c-sort@example.test" });
    const q = "/api/admin/users?search_name=sort-";
    const p1 = await env.json(`${q}&rowsPerPage=2&page=1`, { token });
    assert.equal(p1.total, 3);
    assert.deepEqual(names(p1), ["Sort-A", "sort-b"]);
    assert.deepEqual(names(await env.json(`${q}&rowsPerPage=2&page=2`, { token })), ["sort-c"]);
    assert.deepEqual(names(await env.json(`${q}&sortBy=email&descending=true`, { token })), [
      "Sort-A",
      "sort-c",
      "sort-b",
    ]);
    assert.deepEqual(names(await env.json(`${q}&sortBy=company`, { token })), ["sort-c", "sort-b", "Sort-A"]);
    await env.json(`${q}&sortBy=password_hash`, { token, status: 422 });
  }));

Deno.test("users - the forced password reset clears the flag and ends the user's other sessions", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({
      company_id: OWNER_ID,
      password: "first-pass-1",
      passwordReset: true,
      permissions: ["inspector"],
    });
    const otherSession = await env.login(user.email, "first-pass-1");
    const res = await env.request("/api/admin/users", {
      cookie: `session=${token}`,
      method: "POST",
      // the short form; account_type and permissions are not the user's to change
      json: {
        id: user.id,
        name: "New Name",
        phone: "555-0142",
        password: "second-pass-2",
        permissions: ["superuser"],
      },
    });
    assert.equal(res.status, 200);
    const saved = await res.json();
    assert.equal(saved.message, "User updated");
    assert.equal(saved.passwordReset, false);
    assert.equal(saved.name, "New Name");
    assert.equal(saved.phone, "555-0142");
    assert.deepEqual(saved.roles, ["inspector"]);

    await env.json("/api/admin/users/me", { token: otherSession, status: 401 });
    await env.json("/api/admin/users/me", { token, status: 401 });
    const fresh = /session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
    assert.ok(fresh, "a fresh session cookie keeps the caller signed in");
    const me = await env.json("/api/admin/users/me", { cookie: `session=${fresh}` });
    assert.equal(me.passwordReset, false);
    await env.json("/api/admin/users/me", { token: saved.access_token });

    await env.json("/api/login/access-token", {
      method: "POST",
      form: { username: user.email, password: "first-pass-1" },
      status: 401,
    });
    await env.login(user.email, "second-pass-2");
  }));

Deno.test("users - a self update needs a valid password and cannot reach other users", () =>
  withEnv(async (env) => {
    const { user, token } = await env.userWithToken({ company_id: OWNER_ID, passwordReset: true });
    const short = await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: { id: user.id, phone: "1", password: "short" },
      status: 422,
    });
    assert.deepEqual(short.errors, [{ path: "password", message: "Password must be at least 8 characters" }]);
    const other = await makeUser(env.tenant.db, { company_id: OWNER_ID });
    await env.json("/api/admin/users", {
      token,
      method: "POST",
      json: { id: other.id, phone: "1", password: "long-enough-1" },
      status: 403,
    });
    assert.equal((await row(env, user.id)).passwordReset, true);
  }));

Deno.test("users - an admin's password change or deactivation ends that user's sessions", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const a = await env.userWithToken({ company_id: OWNER_ID });
    await env.json("/api/admin/users", {
      token: admin,
      method: "POST",
      json: form({
        id: a.user.id,
        email: a.user.email,
        password: "reset-by-admin",
        permissions: [],
        passwordReset: true,
      }),
    });
    await env.json("/api/admin/users/me", { token: a.token, status: 401 });
    assert.equal((await row(env, a.user.id)).passwordReset, true);
    await env.login(a.user.email, "reset-by-admin");

    const b = await env.userWithToken({ company_id: OWNER_ID });
    const noChange = form({ id: b.user.id, email: b.user.email, password: "", permissions: [] });
    await env.json("/api/admin/users", { token: admin, method: "POST", json: noChange });
    await env.json("/api/admin/users/me", { token: b.token }); // an ordinary edit keeps sessions
    await env.json("/api/admin/users", {
      token: admin,
      method: "POST",
      json: { ...noChange, active: false },
    });
    await env.json("/api/admin/users/me", { token: b.token, status: 401 });
    const bRow = await row(env, b.user.id);
    assert.equal(bRow.session_version, b.user.session_version + 1);
  }));

Deno.test("users - the download is an xlsx of every matching user with neutralised formulas", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const co = await makeCompany(env.tenant.db, { name: "Export Co" });
    await makeUser(env.tenant.db, {
      company_id: co.id,
      name: "=cmd()",
      email: "formula@example.test",
      phone: "555-0100",
      account_type: "Job-Admin",
      permissions: ["job-admin", "inspector"],
    });
    for (let i = 0; i < 30; i++) await makeUser(env.tenant.db, { company_id: co.id, name: `Export ${i}` });
    const res = await env.request("/api/admin/users/download?search_name=export co&rowsPerPage=25", {
      token,
    });
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get("content-type"),
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(res.headers.get("content-disposition"), `attachment; filename="Users-${today}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer() as never);
    const ws = wb.worksheets[0];
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    assert.deepEqual(rows[0], ["Name", "Email", "Phone", "Company", "Account Type", "Active", "Roles"]);
    assert.equal(rows.length, 32, "every matching row, not one page");
    assert.deepEqual(rows.find((r) => r[1] === "formula@example.test"), [
      "'=cmd()",
      "formula@example.test",
      "555-0100",
      "Export Co",
      "Job-Admin",
      "Yes",
      "job-admin, inspector",
    ]);
  }));

Deno.test("users - the sales rep look-up finds active reps within the caller's scope", () =>
  withEnv(async (env) => {
    const { token } = await tokenWith(env, ["sales-admin"]);
    const rep = await makeUser(env.tenant.db, { company_id: OWNER_ID, name: "Rep Rita", isSalesRep: true });
    await makeUser(env.tenant.db, {
      company_id: OWNER_ID,
      name: "Rep Gone",
      isSalesRep: true,
      active: false,
    });
    await makeUser(env.tenant.db, { company_id: OWNER_ID, name: "Rep Not", isSalesRep: false });
    const cust = await makeCompany(env.tenant.db);
    await makeUser(env.tenant.db, { company_id: cust.id, name: "Rep Elsewhere", isSalesRep: true });
    const found = await env.json("/api/users?isSalesRep=true&search_name=rep", { token });
    assert.deepEqual(found, { results: [{ id: rep.id, name: "Rep Rita", email: rep.email }], total: 1 });
    const any = await env.json("/api/users?search_name=rep", { token });
    assert.deepEqual(names(any), ["Rep Not", "Rep Rita"]);
  }));

Deno.test("users - a session is bound to its tenant and ids of another tenant are 404", () =>
  withEnv(async (env) => {
    const tokenA = await env.login();
    const created = await env.json("/api/admin/users", { token: tokenA, method: "POST", json: form() });
    await env.addTenant("beta", "beta.test");
    await env.json("/api/admin/users", { token: tokenA, host: "beta.test", status: 401 });
    const tokenB = await env.login(ADMIN.email, ADMIN.password, "beta.test");
    const betaUsers = await env.json("/api/admin/users?rowsPerPage=-1", { token: tokenB, host: "beta.test" });
    assert.equal(betaUsers.total, 1);
    await env.json("/api/admin/users", {
      token: tokenB,
      host: "beta.test",
      method: "DELETE",
      json: { id: created.id },
      status: 404,
    });
    await env.json("/api/admin/users", {
      token: tokenB,
      host: "beta.test",
      method: "POST",
      json: form({ id: created.id, email: created.email, password: "" }),
      status: 404,
    });
  }));

Deno.test("users - a Data-Entry user's jobs must be real jobs of their company", () =>
  withEnv(async (env) => {
    const admin = await env.login();
    const job = await makeJob(env.tenant.db);
    const other = await makeCompany(env.tenant.db, { company_type: "inspection_company" });
    const foreign = await makeJob(env.tenant.db, { inspection_company_id: other.id });
    const ok = await env.json("/api/admin/users", {
      method: "POST",
      token: admin,
      json: form({ account_type: "Data-Entry", jobs: [job.id, job.id] }),
    });
    assert.deepEqual(ok.jobs, [job.id]);
    // The spec makes jobs required for Data-Entry: none is refused at the field.
    const none = await env.json("/api/admin/users", {
      method: "POST",
      token: admin,
      json: form({ account_type: "Data-Entry", jobs: [] }),
      status: 422,
    });
    assert.deepEqual(none.errors, [{
      path: "jobs",
      message: "Choose at least one job for a Data-Entry user",
    }]);
    for (const jobs of [[job.id + 1000], [foreign.id]]) {
      const bad = await env.json("/api/admin/users", {
        method: "POST",
        token: admin,
        json: form({ account_type: "Data-Entry", jobs }),
        status: 422,
      });
      assert.deepEqual(bad.errors, [{ path: "jobs", message: "Unknown job" }]);
    }
  }));
