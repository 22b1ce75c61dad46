import { useEffect, useState } from "react";

/** The global 'Loading please wait...' dialog, shown while any long call is under way. */
export default function LoadingDialog() {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const on = (e: Event) => setCount((c) => Math.max(0, c + (e as CustomEvent<number>).detail));
    addEventListener("app:loading", on);
    return () => removeEventListener("app:loading", on);
  }, []);
  if (count === 0) return null;
  return (
    <div className="loading-overlay" role="alertdialog" aria-modal="true" aria-label="Loading">
      <div className="loading-box">
        <span className="spinner" aria-hidden="true" />
        Loading please wait...
      </div>
    </div>
  );
}
