import { useHydrated } from "../../lib/hooks.ts";
import { ScanButton } from "../../scan/ScanButton.tsx";

// The look-up comes with the dialog (decision 022): the top bar on every page loads only the button.
const openSerial = (serial: string) => import("../../scan/open_serial.ts").then((m) => m.openSerial(serial));

/** The top bar's Scan: scan or type a serial number to open its page, from any screen. */
export default function ScanOpen() {
  const hydrated = useHydrated();
  return (
    <ScanButton
      title="Scan a serial number"
      hint="Scan a QR label (camera or USB scanner) or type a serial number to open its history."
      onScan={openSerial}
      disabled={!hydrated}
    />
  );
}
