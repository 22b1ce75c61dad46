import { api, ApiError } from "../lib/api.ts";
import { serialPath } from "../../lib/serial_code.ts";
import type { ScanReply } from "./ScanButton.tsx";

/**
 * The top bar's scan: a serial the user can see (GET /api/scan) opens its page; an unknown one is said in
 * the dialog. Loaded with the dialog, not the page.
 */
export async function openSerial(serial: string): Promise<ScanReply> {
  try {
    await api("/api/scan", { query: { code: serial } });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      return { error: `No record of serial number ${serial} was found.` };
    }
    return { error: e instanceof ApiError ? e.detail : "The serial number could not be looked up." };
  }
  location.assign(serialPath(serial));
}
