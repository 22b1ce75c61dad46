/** Cross-island signals: each island is its own React root, so they talk through window events. */
export type SnackKind = "error" | "success" | "info";

export function showSnack(kind: SnackKind, message: string) {
  globalThis.dispatchEvent(new CustomEvent("app:snack", { detail: { kind, message } }));
}

/** The offline queue changed (ui/offline/queue.ts): islands showing it read it again. */
export const OFFLINE_QUEUE_EVENT = "app:offline-queue";

export function setLoading(on: boolean) {
  globalThis.dispatchEvent(new CustomEvent("app:loading", { detail: on ? 1 : -1 }));
}

/** The spec's error text: the server's detail, else the error's message, else the fallback. */
export function showError(err: unknown) {
  const detail = (err as { detail?: string })?.detail ?? (err as Error)?.message;
  showSnack("error", detail || "Oops something went wrong!");
}

const FLASH_KEY = "app:flash";

/** Goes to `path` (a full page load) and shows `message` there once the page has hydrated. */
export function navigateWithSnack(path: string, message?: string, kind: SnackKind = "success") {
  if (message) sessionStorage.setItem(FLASH_KEY, JSON.stringify({ kind, message }));
  location.assign(path);
}

/** The message a previous page left for this one (see navigateWithSnack), shown once. */
export function showFlash() {
  const raw = sessionStorage.getItem(FLASH_KEY);
  if (!raw) return;
  sessionStorage.removeItem(FLASH_KEY);
  try {
    const { kind, message } = JSON.parse(raw) as { kind: SnackKind; message: string };
    if (message) showSnack(kind, message);
  } catch {
    // a damaged entry is dropped
  }
}
