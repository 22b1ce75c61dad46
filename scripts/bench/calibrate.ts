/**
 * The machine's speed at the time of a run: the same fixed work timed at the start and at the end, so
 * that runs on different days (or a run on a machine slowed by a neighbour) can be told apart. The
 * figures of one commit have varied by half between sessions on the same kind of machine (the xlsx of
 * 200,000 lines: 12.1 s and 22.5 s); a budget is never judged against these, they only explain.
 *
 * - js: JSON of 20,000 rows like a list page's, stringified and parsed (the thread's kind of work).
 * - sqlite: the PT tenant's inspections counted by serial number prefix, a walk of 100,000 index entries
 *   (the database's kind of work), through node:sqlite on the cached file, read only.
 */
import { DatabaseSync } from "node:sqlite";

export interface Speed {
  js: number;
  sqlite: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function calibrate(ptFile: string): Speed {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({
    id: i,
    serial_number: `SN-${i * 7919 % 100_000}`,
    status: i % 3 ? "Available" : "In Repair",
    quantity: i % 17,
    price: (i % 1000) / 4,
    updated_at: "2026-11-27T00:00:00Z",
  }));
  const js: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    JSON.parse(JSON.stringify(rows));
    js.push(performance.now() - t);
  }
  const db = new DatabaseSync(ptFile, { readOnly: true });
  const sqlite: number[] = [];
  try {
    const stmt = db.prepare("select count(*) as n from inspections where serial_number >= ?");
    for (let r = 0; r < 7; r++) {
      const t = performance.now();
      stmt.get("");
      sqlite.push(performance.now() - t);
    }
  } finally {
    db.close();
  }
  return { js: median(js), sqlite: median(sqlite) };
}

export const speedText = (s: Speed) => `js ${s.js.toFixed(1)} ms, sqlite ${s.sqlite.toFixed(1)} ms`;
