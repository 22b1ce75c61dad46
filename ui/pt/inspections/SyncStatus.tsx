import type { QueuedRecord } from "../../offline/queue.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "n waiting to sync", whether the browser is offline, and refusals that need the user. */
export function SyncStatus({ records, online, signIn }: {
  records: QueuedRecord[];
  online: boolean;
  signIn: boolean;
}) {
  const refused = records.filter((r) => r.conflict).length;
  return (
    <p className="sync-status" aria-live="polite">
      {!online && <span className="sync-offline">Offline</span>}
      <span>{records.length - refused} waiting to sync</span>
      {refused > 0 && <span className="sync-refused">{plural(refused, "record")} not saved</span>}
      {signIn && (
        <a href={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>
          Sign in to sync
        </a>
      )}
    </p>
  );
}
