import { api, ApiError } from "../lib/api.ts";
import { serialHref } from "../components/SerialLink.tsx";
import type { ScanReply } from "./ScanButton.tsx";

/**
 * The top bar's scan: a serial with history the user may see (the serial page's own call, one event) opens
 * its page; one without is said in the dialog, before leaving the screen. Loaded with the dialog.
 */
export async function openSerial(serial: string): Promise<ScanReply> {
  try {
    await api(`/api/serials/${encodeURIComponent(serial)}`, { query: { page: 1, rowsPerPage: 1 } });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      return { error: `No record of serial number ${serial} was found.` };
    }
    return { error: e instanceof ApiError ? e.detail : "The serial number could not be looked up." };
  }
  location.assign(serialHref(serial));
}
