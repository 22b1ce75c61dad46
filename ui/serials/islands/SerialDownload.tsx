import { DownloadButton } from "../../components/ListButtons.tsx";
import { useHydrated } from "../../lib/hooks.ts";

/** The history's Download: the whole timeline as xlsx, behind the loading dialog, as the lists download. */
export default function SerialDownload({ serial }: { serial: string }) {
  const hydrated = useHydrated();
  return (
    <DownloadButton
      crud={{ hydrated, list: { query: {} } }}
      endpoint={`/api/serials/${encodeURIComponent(serial)}`}
    />
  );
}
