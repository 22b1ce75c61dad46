import { useState } from "react";
import { Icon } from "../../components/icons.tsx";
import { useHydrated } from "../../lib/hooks.ts";
import { lazyDialog, preloadOn } from "../../lib/lazy_dialog.tsx";

// The dialog and its look-up load when first opened (decision 022): every page loads only this button.
const OpenSerialDialog = lazyDialog(() =>
  import("../../scan/OpenSerialDialog.tsx").then((m) => m.OpenSerialDialog)
);

/** The top bar's Scan: scan or type a serial number to open its page, from any screen. */
export default function ScanOpen() {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-btn"
        aria-label="Scan a serial number"
        title="Scan a serial number"
        disabled={!hydrated}
        onClick={() => setOpen(true)}
        {...preloadOn(OpenSerialDialog.preload)}
      >
        <Icon name="qrCode" />
      </button>
      {open && <OpenSerialDialog onClose={() => setOpen(false)} />}
    </>
  );
}
