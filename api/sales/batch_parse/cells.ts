const pad = (n: number) => String(n).padStart(2, "0");

/** A date as YYYY-MM-DD (Excel dates carry no zone: exceljs reads them as UTC), with its time if any. */
function dateText(d: Date): string {
  const t = new Date(Math.round(d.getTime() / 1000) * 1000);
  const day = t.toISOString().slice(0, 10);
  const [h, m, s] = [t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()];
  if (!h && !m && !s) return day;
  return `${day} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ""}`;
}

/** One cell as the text a user sees: formulas by their result, rich text joined, 15 significant digits. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return Number.isFinite(v) ? String(Number(v.toPrecision(15))) : "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : dateText(v);
  const o = v as Record<string, unknown>;
  if (Array.isArray(o.richText)) return o.richText.map((r: { text?: string }) => r.text ?? "").join("");
  if ("result" in o) return cellText(o.result);
  if ("formula" in o || "sharedFormula" in o) return "";
  if (typeof o.text === "string") return o.text;
  if (typeof o.error === "string") return o.error;
  return "";
}
