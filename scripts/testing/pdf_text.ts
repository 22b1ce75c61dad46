import { inflateSync } from "node:zlib";

/**
 * The text a PDF shows, one line per text operator, for tests: content streams are inflated (pdfkit
 * deflates them) and the strings of their Tj/TJ operators decoded as the standard fonts encode them
 * (WinAnsi). Enough for pdfkit's output with the standard fonts, not a general PDF parser.
 */
export function pdfText(bytes: Uint8Array): string {
  const raw = new TextDecoder("latin1").decode(bytes);
  const lines: string[] = [];
  const start = /(?<!end)stream\r?\n/g;
  for (let m = start.exec(raw); m; m = start.exec(raw)) {
    const from = m.index + m[0].length;
    const to = raw.indexOf("endstream", from);
    if (to < 0) break;
    const body = bytes.subarray(from, to);
    let content: string;
    try {
      content = new TextDecoder("latin1").decode(inflateSync(body));
    } catch {
      content = raw.slice(from, to);
    }
    lines.push(...textOperators(content));
    start.lastIndex = to + "endstream".length;
  }
  return lines.join("\n");
}

const hex = (h: string) =>
  new TextDecoder("windows-1252").decode(
    new Uint8Array((h.replace(/\s/g, "").match(/../g) ?? []).map((b) => parseInt(b, 16))),
  );
const literal = (s: string) =>
  s.replace(
    /\\([nrtbf()\\]|[0-7]{1,3})/g,
    (_, e: string) =>
      /^[0-7]/.test(e)
        ? String.fromCharCode(parseInt(e, 8))
        : ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" } as Record<string, string>)[e] ?? e,
  );

function textOperators(content: string): string[] {
  const out: string[] = [];
  const op =
    /\[((?:<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g;
  for (let m = op.exec(content); m; m = op.exec(content)) {
    if (m[1] !== undefined) {
      const parts = m[1].match(/<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)/g) ?? [];
      out.push(parts.map((p) => (p[0] === "<" ? hex(p.slice(1, -1)) : literal(p.slice(1, -1)))).join(""));
    } else if (m[2] !== undefined) out.push(hex(m[2]));
    else out.push(literal(m[3]));
  }
  return out;
}

export interface PdfImage {
  page: number;
  /** "image" or "smask" (a PNG's transparency) */
  type: string;
  width: number;
  height: number;
}

/** The images embedded in a PDF, as poppler's `pdfimages -list` lists them (one row per drawn image). */
export async function pdfImages(bytes: Uint8Array): Promise<PdfImage[]> {
  const file = await Deno.makeTempFile({ suffix: ".pdf" });
  try {
    await Deno.writeFile(file, bytes);
    const out = await new Deno.Command("pdfimages", { args: ["-list", file] }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).split("\n").slice(2).filter((l) => l.trim()).map((l) => {
      const [page, , type, width, height] = l.trim().split(/\s+/);
      return { page: Number(page), type, width: Number(width), height: Number(height) };
    });
  } finally {
    await Deno.remove(file);
  }
}
