import { Buffer } from "node:buffer";
import SVGtoPDF from "svg-to-pdfkit";
import { companyLogoSource, DEFAULT_LOGO_HEIGHT, logoHeight } from "../../lib/company_logo.ts";
import { imageHeader, LOGO_LIMITS, logoProblem } from "../sales/printing/logo.ts";
import type { PdfDoc } from "./pdf.ts";

/**
 * The company logo on every PDF of both apps (decision 044): the setting the screens show
 * (lib/company_logo.ts), as bytes a document can keep (an issued invoice keeps them, decision 040): a PNG or
 * JPEG as itself, SVG markup as its UTF-8 text. Drawn by `drawLogo`: a PNG or JPEG through pdfkit once its
 * header is checked (logo.ts), SVG as vector paths through svg-to-pdfkit.
 */

/** The logo a company's PDFs draw, and how tall (points): 50 for the screen's default 75 px. */
export interface PdfLogo {
  data: Uint8Array;
  height: number;
}

const enc = new TextEncoder();

/** A logo's height in points from the screen's `logoSVGHeight`: two thirds of it, 24 to 80. */
export function pdfLogoHeight(settings: Record<string, unknown> | null | undefined): number {
  return Math.round(Math.min(80, Math.max(24, (logoHeight(settings) * 2) / 3)));
}

export const PDF_LOGO_HEIGHT = Math.round((DEFAULT_LOGO_HEIGHT * 2) / 3);

/** The bytes of the company's logo as PDFs draw it; undefined for none, a link, or more than the size limit. */
export function pdfLogoBytes(settings: Record<string, unknown> | null | undefined): Uint8Array | undefined {
  const logo = companyLogoSource(settings);
  if (!logo || !logo.data) return undefined;
  if (logo.kind === "svg") {
    const bytes = enc.encode(logo.data);
    return bytes.length <= LOGO_LIMITS.maxBytes ? bytes : undefined;
  }
  if (logo.data.length > LOGO_LIMITS.maxBytes * 1.4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(logo.data)) {
    return undefined;
  }
  return new Uint8Array(Buffer.from(logo.data, "base64"));
}

/** The company's logo for a PDF: its bytes and height; undefined when it has none the PDF can draw. */
export function pdfLogo(settings: Record<string, unknown> | null | undefined): PdfLogo | undefined {
  const data = pdfLogoBytes(settings);
  return data ? { data, height: pdfLogoHeight(settings) } : undefined;
}

/** SVG markup: the bytes start (after spaces or a byte-order mark) with "<". */
export function isSvg(b: Uint8Array): boolean {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return b[i] === 0x3c;
}

/** The width-to-height ratio an SVG declares (its viewBox, else width and height); 2.4 when it says none. */
function svgRatio(markup: string): number {
  const root = /<svg\b[^>]*>/i.exec(markup)?.[0] ?? "";
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(root)?.[1];
  const box = attr("viewBox")?.trim().split(/[\s,]+/).map(Number);
  if (box?.length === 4 && box[2] > 0 && box[3] > 0) return box[2] / box[3];
  const w = parseFloat(attr("width") ?? ""), h = parseFloat(attr("height") ?? "");
  return w > 0 && h > 0 ? w / h : 2.4;
}

type Drawing = PdfDoc & { save(): PdfDoc; restore(): PdfDoc };

/**
 * Draws the logo with its top left at (x, y), `height` points tall and at most `maxWidth` wide, keeping its
 * proportions; answers the width it took, 0 when it cannot be drawn (an unreadable or oversized image, SVG
 * that does not parse): a logo never fails a document.
 */
export function drawLogo(
  doc: PdfDoc,
  logo: PdfLogo | undefined,
  x: number,
  y: number,
  maxWidth = 200,
): number {
  if (!logo) return 0;
  const { data, height } = logo;
  if (isSvg(data)) {
    if (data.length > LOGO_LIMITS.maxBytes) return 0;
    const markup = new TextDecoder().decode(data);
    const ratio = svgRatio(markup);
    const w = Math.min(maxWidth, height * ratio), h = w / ratio;
    const d = doc as Drawing;
    d.save();
    try {
      SVGtoPDF(doc, markup, x, y, {
        width: w,
        height: h,
        preserveAspectRatio: "xMinYMin meet",
        assumePt: true,
        // Never a file or a link: an <image> in the markup is drawn only from a PNG or JPEG data URL it holds.
        imageCallback: (
          link: string,
        ) => (/^data:image\/(png|jpe?g);base64,/i.test(link) ? svgImage(link) : ""),
        warningCallback: () => {},
      });
      return w;
    } catch {
      return 0;
    } finally {
      d.restore();
      doc.x = doc.page.margins.left;
    }
  }
  if (logoProblem(data)) return 0;
  // The drawn width: the image's proportions within maxWidth x height.
  const header = imageHeader(data);
  if (!header) return 0;
  const scale = Math.min(maxWidth / header.width, height / header.height);
  try {
    doc.image(Buffer.from(data.buffer, data.byteOffset, data.byteLength), x, y, {
      fit: [header.width * scale, header.height * scale],
    });
    return header.width * scale;
  } catch {
    return 0;
  }
}

/** A PNG or JPEG data URL inside SVG markup, passed on only when its image passes the logo's checks. */
function svgImage(link: string): string {
  const bytes = new Uint8Array(Buffer.from(link.slice(link.indexOf(",") + 1).replace(/\s+/g, ""), "base64"));
  return logoProblem(bytes) ? "" : link.replace(/\s+/g, "");
}
