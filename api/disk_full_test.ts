import assert from "node:assert/strict";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withEnv } from "../scripts/testing/harness.ts";

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
