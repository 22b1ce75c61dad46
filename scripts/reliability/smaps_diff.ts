/**
 * Which of a process's memory mappings grew between two /proc/<pid>/smaps snapshots (soak.ts --smaps DIR):
 * resident kB per mapping start and end, the mappings that grew most, and totals per kind of mapping
 * (anonymous, heap, stack, file-backed by path).
 *
 *   node_modules/.bin/deno run -A scripts/reliability/smaps_diff.ts DIR [--top 25]
 */
import { numberFlag, parseFlags } from "./lib.ts";

type Mapping = {
  range: string;
  start: bigint;
  size: number;
  perms: string;
  name: string;
  rss: number;
  anon: number;
};

export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | undefined;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s*(.*)$/.exec(line);
    if (head) {
      const start = BigInt("0x" + head[1]), end = BigInt("0x" + head[2]);
      cur = {
        range: `${head[1]}-${head[2]}`,
        start,
        size: Number(end - start) / 1024,
        perms: head[3],
        name: head[4].trim(),
        rss: 0,
        anon: 0,
      };
      out.push(cur);
      continue;
    }
    const field = /^(\w+):\s+(\d+) kB/.exec(line);
    if (field && cur) {
      if (field[1] === "Rss") cur.rss = Number(field[2]);
      if (field[1] === "Anonymous") cur.anon = Number(field[2]);
    }
  }
  return out;
}

function kind(m: Mapping): string {
  if (!m.name) return `anonymous ${m.perms}`;
  if (m.name.startsWith("[")) return m.name;
  return m.name.replace(/.*\//, ".../");
}

if (import.meta.main) {
  const flags = parseFlags(Deno.args.slice(1));
  const dir = Deno.args[0];
  const top = numberFlag(flags, "top", 25);
  const a = parseSmaps(Deno.readTextFileSync(`${dir}/start.txt`));
  const b = parseSmaps(Deno.readTextFileSync(`${dir}/end.txt`));
  const before = new Map(a.map((m) => [m.range, m]));
  const sum = (ms: Mapping[], f: (m: Mapping) => number) => ms.reduce((s, m) => s + f(m), 0);
  console.log(
    `mappings ${a.length} -> ${b.length}; RSS ${(sum(a, (m) => m.rss) / 1024).toFixed(1)} -> ${
      (sum(b, (m) => m.rss) / 1024).toFixed(1)
    } MB`,
  );
  const byKind = new Map<string, { start: number; end: number; count: [number, number] }>();
  for (const [ms, which] of [[a, 0], [b, 1]] as const) {
    for (const m of ms) {
      const k = byKind.get(kind(m)) ?? { start: 0, end: 0, count: [0, 0] };
      if (which === 0) k.start += m.rss;
      else k.end += m.rss;
      k.count[which]++;
      byKind.set(kind(m), k);
    }
  }
  console.log("\nby kind (resident MB start -> end, mappings):");
  for (
    const [k, v] of [...byKind].sort((x, y) => (y[1].end - y[1].start) - (x[1].end - x[1].start)).slice(
      0,
      top,
    )
  ) {
    console.log(
      `  ${((v.end - v.start) / 1024).toFixed(1).padStart(7)}  ${(v.start / 1024).toFixed(1)} -> ${
        (v.end / 1024).toFixed(1)
      }  (${v.count[0]} -> ${v.count[1]})  ${k}`,
    );
  }
  console.log("\nmappings that grew most (same range, or new):");
  const grew = b.map((m) => ({ m, was: before.get(m.range)?.rss ?? 0, isNew: !before.has(m.range) }))
    .sort((x, y) => (y.m.rss - y.was) - (x.m.rss - x.was)).slice(0, top);
  for (const g of grew) {
    console.log(
      `  ${((g.m.rss - g.was) / 1024).toFixed(1).padStart(7)} MB  ${g.m.range} size ${
        (g.m.size / 1024).toFixed(1)
      } MB ${g.m.perms} ${g.isNew ? "(new) " : ""}${g.m.name}`,
    );
  }
  const gone = a.filter((m) => !b.some((x) => x.range === m.range));
  console.log(`\nmappings gone: ${gone.length}, resident ${(sum(gone, (m) => m.rss) / 1024).toFixed(1)} MB`);
}
