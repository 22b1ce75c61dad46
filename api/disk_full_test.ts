import assert from "node:assert/strict";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, withEnv } from "../scripts/testing/harness.ts";

/** A real small filesystem to fill: tmpfs, which needs root (CI and this workplace run as root). */
async function mountSmallDisk(): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "bo-full-"));
  try {
    const out = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dir],
      stdout: "null",
      stderr: "null",
    }).output();
    if (out.success) return dir;
  } catch { /* no mount command */ }
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

async function unmount(dir: string) {
  // Lazily: a closed libSQL connection lets go of its file only when collected.
  await new Deno.Command("umount", { args: ["-l", dir] }).output();
  rmSync(dir, { recursive: true, force: true });
}

/** Fills the disk to the last byte; answers the filler files, to free the space again. */
function fill(dir: string): string[] {
  const files: string[] = [];
  for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
    for (;;) {
      const f = join(dir, `filler-${files.length}`);
      try {
        writeFileSync(f, new Uint8Array(size));
        files.push(f);
      } catch {
        rmSync(f, { force: true });
        break;
      }
    }
  }
  return files;
}

// Can this machine mount one? (Probed once; each run mounts its own.)
const probe = await mountSmallDisk();
if (probe) await unmount(probe);

Deno.test({
  name:
    "disk full - a save answers 507 with a sentence, reads keep working, and saves resume once space is freed",
  ignore: !probe,
  fn: async () => {
    const disk = (await mountSmallDisk())!;
    try {
      await withEnv(async (env) => {
        const token = await env.login();
        const save = (name: string) =>
          env.request("/api/companies", {
            method: "POST",
            token,
            json: { name, company_type: "customer_company" },
          });
        assert.equal((await save("Before Full")).status, 200);
        const fillers = fill(disk);
        let res = await save("While Full " + "x".repeat(180));
        for (let i = 0; i < 20 && res.status === 200; i++) {
          res = await save(`While Full ${i} ${"y".repeat(170)}`);
        }
        assert.equal(res.status, 507);
        assert.match((await res.json()).detail, /disk is full/);
        const list = await env.json("/api/companies?search_name=Before", { token });
        assert.equal(list.results[0]?.name, "Before Full");
        const page = await env.request("/admin/companies", { cookie: `session=${token}` });
        assert.equal(page.status, 200);
        await page.body?.cancel();
        for (const f of fillers) unlinkSync(f);
        assert.equal((await save("After Freed")).status, 200);
      }, { DATA_DIR: disk });
    } finally {
      await unmount(disk);
    }
  },
});

Deno.test({
  name:
    "disk full - sign-in still works: the throttle counts in memory (a locked pair stays locked), and in the database again once space is freed",
  ignore: !probe,
  fn: async () => {
    const disk = (await mountSmallDisk())!;
    try {
      await withEnv(async (env) => {
        const signIn = (password: string, address: string) =>
          env.request("/api/login/access-token", {
            method: "POST",
            form: { username: ADMIN.email, password },
            headers: { "x-forwarded-for": address },
          });
        const token = await env.login();
        // Two wrong passwords counted in the database before the disk fills.
        for (let i = 0; i < 2; i++) assert.equal((await signIn("wrong", "203.0.113.50")).status, 401);
        const fillers = fill(disk);
        // Filled for sure: a save no longer fits.
        let res: Response | undefined;
        for (let i = 0; i < 20 && res?.status !== 507; i++) {
          res = await env.request("/api/companies", {
            method: "POST",
            token,
            json: { name: `While Full ${i} ${"y".repeat(170)}`, company_type: "customer_company" },
          });
          await res.body?.cancel();
        }
        assert.equal(res!.status, 507);
        const ok = await signIn(ADMIN.password, "192.0.2.50");
        assert.equal(ok.status, 200, await ok.clone().text());
        assert.ok((await ok.json()).access_token);
        // The pair begun in the database goes on in memory: three more failures lock it (five in all).
        for (let i = 0; i < 3; i++) assert.equal((await signIn("wrong", "203.0.113.50")).status, 401);
        assert.ok(env.services.throttle.memoryLoad.rows > 0, "counted in memory");
        const locked = await signIn(ADMIN.password, "203.0.113.50");
        assert.equal(locked.status, 429, "the pair is locked while the disk is full");
        assert.equal((await signIn(ADMIN.password, "192.0.2.51")).status, 200, "another address signs in");
        for (const f of fillers) unlinkSync(f);
        const after = await signIn(ADMIN.password, "192.0.2.52");
        assert.equal(after.status, 200);
        await after.body?.cancel();
      }, { DATA_DIR: disk });
    } finally {
      await unmount(disk);
    }
  },
});
