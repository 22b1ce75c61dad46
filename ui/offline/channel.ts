/**
 * The tabs of one browser tell each other when the offline queue changed, so every tab shows the same
 * queue within moments: a record queued in one tab is counted in all, and records another tab sent
 * leave every tab's "Waiting to sync" (issue 32). One channel per page: a BroadcastChannel does not hear
 * its own messages, so a tab is not told what it did itself (it already dispatched OFFLINE_QUEUE_EVENT).
 * Where BroadcastChannel is missing, the tabs still meet at their 30 s retry, which reads the queue again.
 */
export interface QueueNews {
  /** records this tab's sync sent: the others refetch their lists */
  synced?: number;
}

const NAME = "offline-queue";
let channel: BroadcastChannel | null | undefined;

function open(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(NAME) : null;
  }
  return channel;
}

/** Tells the other tabs the queue changed. */
export function announce(news: QueueNews = {}): void {
  open()?.postMessage(news);
}

/** Calls `fn` when another tab changed the queue; returns the unsubscribe. */
export function onNews(fn: (news: QueueNews) => void): () => void {
  const ch = open();
  if (!ch) return () => {};
  const listener = (e: MessageEvent) => fn((e.data ?? {}) as QueueNews);
  ch.addEventListener("message", listener);
  return () => ch.removeEventListener("message", listener);
}
