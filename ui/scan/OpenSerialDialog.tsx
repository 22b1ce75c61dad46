import { ScanDialog } from "./ScanDialog.tsx";
import { openSerial } from "./open_serial.ts";

/** The top bar's scan dialog: a scanned or typed serial opens its history page. */
export function OpenSerialDialog({ onClose }: { onClose: () => void }) {
  return (
    <ScanDialog
      title="Scan a serial number"
      hint="Scan a QR label (camera or USB scanner) or type a serial number to open its history."
      onScan={openSerial}
      onClose={onClose}
    />
  );
}
