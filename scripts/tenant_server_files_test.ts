/**
 * A running server (another process) lets go of a tenant's files once the CLI deletes or restores the tenant,
 * without a request of that tenant (decision 037): its open files are read from /proc/<pid>/fd.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../db/catalog.ts";
import { FILE_CHECK_MS } from "../db/tenants.ts";
import { DENO, ROOT, ServerProcess, sleep } from "./testing/server_process.ts";

const dec = new TextDecoder();

async function cli(dataDir: string, ...args: string[]) {
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", "scripts/tenant.ts", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, SCRYPT_N: "1024" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const r = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  return r;
}

const create = (dataDir: string, slug: string, host: string) =>
  cli(
    dataDir,
    "create",
    slug,
    "--name",
    `${slug} Co`,
    "--host",
    host,
    "--admin-email",
    `admin@${slug}.test`,
    "--admin-password",
    "admin-pass-1",
  );

/** The files of `slug` (`tenants/<slug>.db`, `<slug>-<stamp>.db`, their -wal and -shm) the process holds open. */
function openFiles(pid: number, slug: string): string[] {
  const out: string[] = [];
  const dir = `/proc/${pid}/fd`;
  for (const fd of readdirSync(dir)) {
    let target: string;
    try {
      target = readlinkSync(join(dir, fd));
    } catch {
      continue; // closed meanwhile
    }
    if (new RegExp(`/tenants/${slug}(-[0-9TZ]+)?\\.db`).test(target)) out.push(target);
  }
  return out.sort();
}

/** ms until `pred` holds, checked every 20 ms; fails past `deadlineMs`. */
async function within(deadlineMs: number, what: string, pred: () => boolean): Promise<number> {
  const t0 = performance.now();
  while (!pred()) {
    if (performance.now() - t0 > deadlineMs) assert.fail(`${what} not within ${deadlineMs} ms`);
    await sleep(20);
  }
  return Math.round(performance.now() - t0);
}

const status = async (url: string) => {
  const r = await fetch(url, { redirect: "manual" });
  await r.body?.cancel();
  return r.status;
};

Deno.test({
  name:
    "tenant server files - the server closes a tenant's files once the CLI deletes it (404 from then on) or restores it, without a request of it",
  ignore: !existsSync("/proc/self/fd"),
  fn: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tenant-files-"));
    (await Catalog.open(dataDir)).close();
    await create(dataDir, "kk19", "127.0.0.10");
    await create(dataDir, "kk20", "127.0.0.11");
    const server = new ServerProcess(dataDir);
    try {
      await server.start();
      const kk19 = server.url("127.0.0.10") + "/signin";
      const kk20 = server.url("127.0.0.11") + "/signin";
      assert.equal(await status(kk19), 200);
      assert.equal(await status(kk20), 200);
      assert.ok(openFiles(server.pid, "kk19").length > 0, "the server opened kk19's files");
      assert.ok(openFiles(server.pid, "kk20").length > 0, "the server opened kk20's files");

      // Delete: no request of kk19 (or any tenant) from here until its files are closed.
      await cli(dataDir, "delete", "kk19", "--yes");
      const deleteMs = await within(
        FILE_CHECK_MS * 5,
        "kk19's files closed after delete",
        () => openFiles(server.pid, "kk19").length === 0,
      );
      assert.equal(await status(kk19), 404);
      assert.ok(openFiles(server.pid, "kk20").length > 0, "the other tenant stays open");

      // Restore: the old file is removed by the CLI and let go of by the server; the next request opens the new one.
      const backup = join(dataDir, "kk20-backup.db");
      await cli(dataDir, "backup", "kk20", "--out", backup);
      const before = openFiles(server.pid, "kk20");
      assert.ok(before.every((f) => f.includes("/tenants/kk20.db")), before.join(" "));
      await cli(dataDir, "restore", "kk20", "--from", backup);
      const restoreMs = await within(
        FILE_CHECK_MS * 5,
        "kk20's old files closed after restore",
        () => openFiles(server.pid, "kk20").length === 0,
      );
      assert.equal(await status(kk20), 200);
      const after = openFiles(server.pid, "kk20");
      assert.ok(
        after.length > 0 && after.every((f) => /\/tenants\/kk20-\d{8}T\d{9}Z\.db/.test(f)),
        after.join(" "),
      );
      console.log(
        `files closed ${deleteMs} ms after delete, ${restoreMs} ms after restore (checks every ${FILE_CHECK_MS} ms)`,
      );
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
});
