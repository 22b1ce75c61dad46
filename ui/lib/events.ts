/** Cross-island signals: each island is its own React root, so they talk through window events. */
export type SnackKind = "error" | "success" | "info";

export function showSnack(kind: SnackKind, message: string) {
  globalThis.dispatchEvent(new CustomEvent("app:snack", { detail: { kind, message } }));
}

export function setLoading(on: boolean) {
  globalThis.dispatchEvent(new CustomEvent("app:loading", { detail: on ? 1 : -1 }));
}

/** The spec's error text: the server's detail, else the error's message, else the fallback. */
export function showError(err: unknown) {
  const detail = (err as { detail?: string })?.detail ?? (err as Error)?.message;
  showSnack("error", detail || "Oops something went wrong!");
}
