import { serialPath } from "../../lib/serial_code.ts";

/** The history page of a serial number (`/serials/{serial}`), the one way tables link to it. */
export const serialHref = (serial: string) => serialPath(serial.trim());

/** A serial number in a table, linked to its history across both apps; blank stays blank. */
export function SerialLink({ serial }: { serial: string }) {
  if (!serial.trim()) return <>{serial}</>;
  return <a href={serialHref(serial)} title={`History of ${serial}`}>{serial}</a>;
}
