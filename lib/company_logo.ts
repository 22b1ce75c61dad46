/**
 * Which company setting is the logo, and what it holds: the one rule the screens (ui/shell/CompanyLogo.tsx)
 * and every PDF of both apps (api/sales/printing/logo.ts) follow (decision 044).
 *
 * `logoSVG` comes first, then `companyLogo`, then the sales app's own `Sales.companyLogo`. Despite its name,
 * `logoSVG` is what a company pasted: SVG markup, or an image as a data URL, a bare base64 string or a link
 * (a PNG in `logoSVG` used to be wrapped as SVG and showed as a broken image). `logoSVGHeight` is its height
 * on screen in pixels (default 75).
 */

export type LogoKind = "svg" | "png" | "jpeg" | "image" | "link";

export interface CompanyLogoSource {
  kind: LogoKind;
  /** What an `<img>` shows: a data URL or a link. */
  src: string;
  /** SVG markup (svg), or the base64 of the image (png, jpeg, image); "" for a link. */
  data: string;
  /** The setting it came from. */
  setting: "logoSVG" | "companyLogo" | "Sales.companyLogo";
}

/** The logo's height on screen in pixels: `logoSVGHeight` when a positive number (at most 200), else 75. */
export const DEFAULT_LOGO_HEIGHT = 75;
export function logoHeight(settings: Record<string, unknown> | null | undefined): number {
  const h = Number(settings?.logoSVGHeight);
  return Number.isFinite(h) && h > 0 ? Math.min(h, 200) : DEFAULT_LOGO_HEIGHT;
}

const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}\s*$/;
const DATA_URL = /^data:image\/([a-z0-9.+-]+)(;[^,]*)?,/i;

/** The kind of image a bare base64 string holds, by its first bytes (PNG, JPEG, SVG), or undefined. */
function base64Kind(b64: string): "png" | "jpeg" | "svg" | undefined {
  const head = b64.replace(/\s+/g, "").slice(0, 8);
  if (head.startsWith("iVBORw0K")) return "png";
  if (head.startsWith("/9j/")) return "jpeg";
  if (head.startsWith("PHN2Zy") || head.startsWith("PD94bW")) return "svg"; // "<svg", "<?xml"
  return undefined;
}

const toBase64 = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
};

const fromBase64 = (b64: string) => {
  const bin = atob(b64.replace(/\s+/g, ""));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
};

/** One setting's value as a logo, or undefined when it is none (blank, not text, not an image). */
export function logoSourceOf(
  value: unknown,
  setting: CompanyLogoSource["setting"],
): CompanyLogoSource | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  if (v.startsWith("<")) {
    return { kind: "svg", src: `data:image/svg+xml;base64,${toBase64(v)}`, data: v, setting };
  }
  const m = DATA_URL.exec(v.slice(0, 100));
  if (m) {
    const type = m[1].toLowerCase();
    const isBase64 = /;base64/i.test(m[2] ?? "");
    const body = v.slice(m[0].length);
    if (type === "svg+xml") {
      let markup: string;
      try {
        markup = isBase64 ? fromBase64(body) : decodeURIComponent(body);
      } catch {
        return undefined;
      }
      return { kind: "svg", src: v, data: markup, setting };
    }
    const kind = type === "png" ? "png" : type === "jpeg" || type === "jpg" ? "jpeg" : "image";
    return { kind, src: v, data: isBase64 ? body.replace(/\s+/g, "") : "", setting };
  }
  if (/^(https?:\/\/|\/)/i.test(v)) return { kind: "link", src: v, data: "", setting };
  if (v.length > 16 && BASE64.test(v)) {
    const kind = base64Kind(v);
    if (kind === "svg") {
      try {
        return {
          kind,
          src: `data:image/svg+xml;base64,${v.replace(/\s+/g, "")}`,
          data: fromBase64(v),
          setting,
        };
      } catch {
        return undefined;
      }
    }
    if (kind) return { kind, src: `data:image/${kind};base64,${v.replace(/\s+/g, "")}`, data: v, setting };
  }
  return undefined;
}

/** The company's logo: the first of `logoSVG`, `companyLogo` and `Sales.companyLogo` that holds one. */
export function companyLogoSource(
  settings: Record<string, unknown> | null | undefined,
): CompanyLogoSource | undefined {
  if (!settings) return undefined;
  const sales = settings.Sales as Record<string, unknown> | undefined;
  return logoSourceOf(settings.logoSVG, "logoSVG") ?? logoSourceOf(settings.companyLogo, "companyLogo") ??
    logoSourceOf(sales?.companyLogo, "Sales.companyLogo");
}
