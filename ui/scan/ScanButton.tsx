import { useState } from "react";
import { Icon } from "../components/icons.tsx";
import { lazyDialog, preloadOn, usePreloadWhenIdle } from "../lib/lazy_dialog.tsx";

/** What a screen does with a scanned serial: nothing to say (done), a refusal, or what it did. */
export type ScanReply = void | { error: string } | { ok: string };

export interface ScanProps {
  /** the dialog's title: what the scan is for */
  title: string;
  hint?: string;
  onScan: (serial: string) => ScanReply | Promise<ScanReply>;
  /** stay open for the next scan (adding serials to a list) instead of closing after one */
  keepOpen?: boolean;
}

// The dialog, its camera and decoder load when it is first opened (decision 022), or as soon as the page is
// idle once a Scan button shows: where it shows, scanning is the task (decision 050).
const ScanDialog = lazyDialog(() => import("./ScanDialog.tsx").then((m) => m.ScanDialog));

/** A Scan button and the scan dialog it opens; `label` absent: an icon button named by `title`. */
export function ScanButton({ label, disabled, ...scan }: ScanProps & { label?: string; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  usePreloadWhenIdle(ScanDialog.preload);
  return (
    <>
      <button
        type="button"
        className={label ? "btn" : "icon-btn"}
        aria-label={label ? undefined : scan.title}
        title={scan.title}
        disabled={disabled}
        onClick={() => setOpen(true)}
        {...preloadOn(ScanDialog.preload)}
      >
        <Icon name="qrCode" size={label ? 18 : 22} />
        {label}
      </button>
      {open && <ScanDialog {...scan} onClose={() => setOpen(false)} />}
    </>
  );
}
