/**
 * docker-compose.yml as data for scripts/deploy_check.ts: read as Compose reads it, interpolated with nothing set.
 */
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** not run here (a missing tool); says what would run it */
  skipped?: boolean;
}

// deno-lint-ignore no-explicit-any
export type Compose = any;

const dec = new TextDecoder();

/** The compose file as data: PyYAML (Debian's python3-yaml) reads YAML 1.1 with merge keys, as Compose does. */
export async function readCompose(file: string): Promise<Compose> {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const out = await new Deno.Command(python, {
      args: ["-c", "import yaml,json,sys; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", file],
      stdout: "piped",
      stderr: "piped",
    }).output().catch(() => undefined);
    if (out?.success) return JSON.parse(dec.decode(out.stdout));
    const err = out ? dec.decode(out.stderr) : "";
    if (/yaml\.(scanner|parser|composer|constructor)|YAMLError/.test(err)) {
      throw new Error(`${file} is not valid YAML: ${err.trim().split("\n").slice(-3).join(" ")}`);
    }
  }
  throw new Error(
    "reading docker-compose.yml needs python3 with PyYAML (Debian: apt-get install python3-yaml)",
  );
}

/** Compose's interpolation with no variables set: `${NAME:-default}` is its default, `${NAME}` empty. */
export function interpolate(v: unknown): unknown {
  if (typeof v === "string") {
    return v.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_, _name, d?: string) => d ?? "");
  }
  if (Array.isArray(v)) return v.map(interpolate);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, interpolate(x)]));
  }
  return v;
}
