import { useState } from "react";
import { Icon } from "../../components/icons.tsx";
import { lazyDialog, preloadOn } from "../../lib/lazy_dialog.tsx";

// The dialog and its look-up load when first opened (decision 022): every page loads only this button.
const OpenSerialDialog = lazyDialog(() =>
  import("../../scan/OpenSerialDialog.tsx").then((m) => m.OpenSerialDialog)
);

/**
 * The top bar's Scan: scan or type a serial number to open its page, from any screen. Before the scripts it is
 * a GET form to `/serials` (its search box; a typed or USB-scanned serial and Enter open the serial's page,
 * decision 056); once hydrated it opens the scan dialog (the camera needs the script, loaded on demand).
 */
export default function ScanOpen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <form method="get" action="/serials" style={{ display: "contents" }}>
        <button
          type="submit"
          className="icon-btn"
          aria-label="Scan a serial number"
          title="Scan a serial number"
          onClick={(e) => {
            e.preventDefault();
            setOpen(true);
          }}
          {...preloadOn(OpenSerialDialog.preload)}
        >
          <Icon name="qrCode" />
        </button>
      </form>
      {open && <OpenSerialDialog onClose={() => setOpen(false)} />}
    </>
  );
}
