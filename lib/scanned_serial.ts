import { MAX_SERIAL, SERIAL_PREFIX as PREFIX } from "./serial_code.ts";

/**
 * What a scan yields (issue 13): the app's scanner takes a label's URL (of any host: labels outlive host
 * names) or the bare serial a USB scanner types or an older label holds. Pure: the scan dialog's.
 */

/** The longest scanned text considered: a label URL of the longest serial, every character escaped. */
export const MAX_CODE = 2_000;

// C0 and C1 controls: a scanner's trailing Enter or Tab is trimmed first; any other is not a serial.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

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
