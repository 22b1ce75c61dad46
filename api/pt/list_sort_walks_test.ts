import assert from "node:assert/strict";
import { analyzeForPlans, type TestEnv, withEnv } from "../../scripts/testing/harness.ts";
import { makeCompany, makeInspection, makeJob, makePart } from "../../db/factories.ts";

/** Every page of 7 put together, and the whole list (`rowsPerPage=-1`), against the plain query's ids. */
async function pagesMatch(env: TestEnv, token: string, path: string, expected: number[], what: string) {
  const all = await env.json(`${path}&rowsPerPage=-1`, { token });
  assert.deepEqual(all.results.map((r: { id: number }) => r.id), expected, `${what}: rowsPerPage=-1`);
  const paged: number[] = [];
  for (let page = 1; page <= Math.ceil(expected.length / 7) + 1; page++) {
    const { results, total } = await env.json(`${path}&rowsPerPage=7&page=${page}`, { token });
    assert.equal(total, expected.length, what);
    paged.push(...results.map((r: { id: number }) => r.id));
  }
  assert.deepEqual(paged, expected, `${what}: pages of 7`);
}

/** The statements of one call with a LIMIT (the page's ids), and their plans. */
async function pagePlans(env: TestEnv, token: string, url: string): Promise<string[]> {
  const client = env.tenant.client;
  const execute = client.execute.bind(client);
  const seen: { sql: string; args: unknown[] }[] = [];
  client.execute = ((stmt: { sql: string; args: unknown[] }) => {
    if (typeof stmt === "object" && /\blimit\b/.test(stmt.sql)) seen.push(stmt);
    return execute(stmt as never);
  }) as typeof client.execute;
  try {
    await env.json(url, { token });
  } finally {
    client.execute = execute;
  }
  const plans = [];
  for (const s of seen) {
    plans.push(
      (await execute({ sql: `explain query plan ${s.sql}`, args: s.args as never })).rows
        .map((r) => String(r.detail)).join("\n"),
    );
  }
  return plans;
}

Deno.test("jobs by operator or district - every page in the plain query's order (name, then id, ties included), from the indexes", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const operators = [];
    // Two operators named alike but for case: their jobs interleave by id, as the joined sort ordered them.
    for (const name of ["Basin Ops", "basin ops", "Apex Energy", "Zeta Oil"]) {
      operators.push(await makeCompany(db, { company_type: "operator_company", name }));
    }
    const districts = ["Permian", "permian", "Eagle Ford", "Bakken", "", "delaware"];
    for (let i = 0; i < 26; i++) {
      await makeJob(db, { operator_company_id: operators[i % 4].id, district: districts[(i * 5) % 6] });
    }
    const checkPlans = await analyzeForPlans(env);
    for (const [sortBy, key] of [["operator", "o.name"], ["district", "j.district"]]) {
      for (const descending of [false, true]) {
        const d = descending ? "desc" : "asc";
        const expected = (await env.tenant.client.execute(
          `select j.id from jobs j join companies o on o.id = j.operator_company_id
           order by ${key} collate nocase ${d}, j.id ${d}`,
        )).rows.map((r) => Number(r.id));
        const path = `/api/pt/jobs?sortBy=${sortBy}&descending=${descending}`;
        await pagesMatch(env, token, path, expected, `${sortBy} ${d}`);
        if (!checkPlans) continue;
        const [plan] = await pagePlans(env, token, `${path}&page=2&rowsPerPage=7`);
        // The walk's index in the plan; a sort only of the page's own rows, or of one operator name's jobs
        // (SQLite names that "RIGHT PART" of the order, 3.45, or its "LAST TERM", 3.53).
        assert.match(
          plan,
          sortBy === "operator"
            ? /SCAN operator USING \w* ?INDEX companies_name_idx/
            : /jobs_company_district_idx/,
          `${sortBy} ${d}:\n${plan}`,
        );
        const sorts = plan.split("\n").filter((l) =>
          /TEMP B-TREE/.test(l) && !/RIGHT PART|LAST TERM/.test(l)
        );
        assert.ok(sorts.length <= (sortBy === "operator" ? 1 : 0), `${sortBy} ${d}:\n${plan}`);
      }
    }
  }));

Deno.test("inspections by part name - two walks (by part, then without one), every page in order, from the indexes", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const job = await makeJob(db);
    const parts = [];
    for (const name of ["Plug Valve", "plug valve", "Hammer Union", "Zeta Valve"]) {
      parts.push(await makePart(db, { name }));
    }
    for (let i = 0; i < 30; i++) {
      await makeInspection(db, { job_id: job.id, part_id: i % 5 === 0 ? null : parts[i % 4].id });
    }
    const checkPlans = await analyzeForPlans(env);
    for (const descending of [false, true]) {
      const d = descending ? "desc" : "asc";
      // Without a part first ascending, last descending; ties on a name by the part, then the inspection.
      const expected = (await env.tenant.client.execute(
        `select i.id from inspections i left join parts p on p.id = i.part_id
         order by p.name collate nocase ${d}, p.id ${d}, i.id ${d}`,
      )).rows.map((r) => Number(r.id));
      const path = `/api/pt/inspections?sortBy=part_name&descending=${descending}`;
      await pagesMatch(env, token, path, expected, `part_name ${d}`);
      for (const page of checkPlans ? [1, 4] : []) {
        const plans = await pagePlans(env, token, `${path}&page=${page}&rowsPerPage=7`);
        assert.ok(plans.length >= 1);
        for (const plan of plans) {
          assert.doesNotMatch(plan, /TEMP B-TREE/, `part_name ${d}:\n${plan}`);
          assert.doesNotMatch(plan, /^SCAN inspections\b/m, `part_name ${d}:\n${plan}`);
        }
      }
    }
  }));
