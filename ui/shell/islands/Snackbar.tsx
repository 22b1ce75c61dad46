import { useEffect, useState } from "react";
import type { SnackKind } from "../../lib/events.ts";

const TIMEOUT_MS = 6000;

/** Red errors, green successes, blue info; one at a time, 6 s, with a Close button. */
export default function Snackbar() {
  const [snack, setSnack] = useState<{ kind: SnackKind; message: string; n: number } | null>(null);
  useEffect(() => {
    let n = 0;
    const on = (e: Event) => setSnack({ ...(e as CustomEvent).detail, n: ++n });
    addEventListener("app:snack", on);
    return () => removeEventListener("app:snack", on);
  }, []);
  useEffect(() => {
    if (!snack) return;
    const t = setTimeout(() => setSnack(null), TIMEOUT_MS);
    return () => clearTimeout(t);
  }, [snack]);
  return (
    <div className="snackbar-region" role="status" aria-live="polite">
      {snack && (
        <div
          className={`snackbar snackbar-${snack.kind}`}
          role={snack.kind === "error" ? "alert" : undefined}
        >
          <span>{snack.message}</span>
          <button type="button" className="snackbar-close" onClick={() => setSnack(null)}>Close</button>
        </div>
      )}
    </div>
  );
}
