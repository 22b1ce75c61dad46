/**
 * What a QR label encodes and what a scan yields (issue 13). A label's QR code holds the serial's page,
 * `https://<host>/serials/<serial>`, so any phone camera opens it; the app's scanner takes that URL (of
 * any host: labels outlive host names) or the bare serial a USB scanner types or an older label holds.
 * Pure: shared by the label PDF, the scan look-up and the scan dialog.
 */

/** The longest serial number the app stores (the inventory and inspection schemas' bound). */
export const MAX_SERIAL = 200;
/** The longest scanned text considered: a label URL of the longest serial, every character escaped. */
export const MAX_CODE = 2_000;

const PREFIX = "/serials/";
// C0 and C1 controls: a scanner's trailing Enter or Tab is trimmed first; any other is not a serial.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The serial's page, as a link inside the app. */
export const serialPath = (serial: string): string => `${PREFIX}${encodeURIComponent(serial)}`;

/** What a label's QR code encodes for a serial printed by the tenant at `host`. */
export const serialUrl = (host: string, serial: string): string => `https://${host}${serialPath(serial)}`;

/**
 * The serial a scanned or typed text names, or why it names none: a label URL gives its path's
 * serial; any other text is the serial itself (trimmed).
 */
export function serialFromCode(code: string): { serial: string } | { error: string } {
  const text = code.trim();
  if (!text) return { error: "Scan a label or type a serial number." };
  if (text.length > MAX_CODE) return { error: "That code is too long to be a serial number." };
  let serial = text;
  if (/^https?:\/\//i.test(text)) {
    const path = URL.canParse(text) ? new URL(text).pathname : "";
    if (!path.startsWith(PREFIX)) return { error: "That QR code is not a serial number label." };
    try {
      serial = decodeURIComponent(path.slice(PREFIX.length)).trim();
    } catch {
      return { error: "That QR code is not a serial number label." };
    }
  }
  if (!serial) return { error: "That QR code is not a serial number label." };
  if (serial.length > MAX_SERIAL) return { error: `A serial number has at most ${MAX_SERIAL} characters.` };
  if (CONTROL.test(serial) || !serial.isWellFormed()) {
    return { error: "That code holds characters a serial number cannot have." };
  }
  return { serial };
}
