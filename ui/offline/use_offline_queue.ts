import { useCallback, useEffect, useRef, useState } from "react";
import { OFFLINE_QUEUE_EVENT, showSnack } from "../lib/events.ts";
import { useLatest } from "../lib/hooks.ts";
import type { QueuedRecord } from "./queue.ts";
import { onNews } from "./channel.ts";

/** How often waiting records are tried again while the page is open (after a 5xx or a lost answer). */
const RETRY_MS = 30_000;
/** the first retry after a failed send; doubled each time, up to RETRY_MS */
const FIRST_RETRY_MS = 2_000;

/**
 * Installs the offline worker (/sw.js). A page it does not control yet (the first visit) asks it to
 * keep this page; `body[data-offline-ready]` says the page will open offline.
 */
async function installWorker() {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return;
  await navigator.serviceWorker.register("/sw.js");
  const reg = await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller && reg.active) {
    const channel = new MessageChannel();
    const kept = new Promise((resolve) => (channel.port1.onmessage = resolve));
    reg.active.postMessage({ keep: location.href }, [channel.port2]);
    await kept;
  }
  document.body.dataset.offlineReady = "true";
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The queue's code, loaded after the page (page JavaScript budget). */
const code = () => Promise.all([import("./queue.ts"), import("./sync.ts")]);

/**
 * The signed-in user's queued records and their sync: read on load, on every change made in this tab or
 * another (ui/offline/channel.ts) and after every sync, sent on load, when the browser comes online and
 * every 30 s while some wait. `onSynced` runs after records landed
 * (the table refetches). `retry` sends a refused record again; `discard` drops it. Without a user (a
 * view that makes no records) it does nothing.
 */
export function useOfflineQueue(userId: number | undefined, onSynced: () => void) {
  const [records, setRecords] = useState<QueuedRecord[]>([]);
  const [online, setOnline] = useState(true);
  const [signIn, setSignIn] = useState(false);
  const synced = useLatest(onSynced);
  const backoff = useRef<{ ms: number; timer?: ReturnType<typeof setTimeout> }>({ ms: 0 });
  const mounted = useRef(false);

  /** The queue as stored now: another tab may have added, sent or discarded records. */
  const read = useCallback(async () => {
    if (userId === undefined) return;
    const r = await (await code())[0].queued(userId);
    if (mounted.current) setRecords(r);
  }, [userId]);

  const sync = useCallback(async () => {
    if (!navigator.onLine || userId === undefined) return;
    // Read the queue after every run: one that waited for another tab's lock may have found nothing left.
    const r = await (await code())[1].syncQueue(userId).finally(read);
    // The network failed (or the server was busy): tried again soon, then less often, up to the 30 s rhythm.
    // The browser's "online" event cannot be relied on alone: a page a service worker answered while offline
    // may believe it is online all along (Chromium 150 under an emulated outage), so no event ever comes.
    clearTimeout(backoff.current.timer);
    if (r.stopped && !r.signIn) {
      backoff.current.ms = Math.min(RETRY_MS, backoff.current.ms ? backoff.current.ms * 2 : FIRST_RETRY_MS);
      backoff.current.timer = setTimeout(() => sync().catch(console.error), backoff.current.ms);
    } else backoff.current.ms = 0;
    setSignIn(r.signIn);
    if (r.sent) {
      showSnack("success", `${plural(r.sent, "record")} synced`);
      synced.current();
    }
    if (r.refused) {
      showSnack("error", `${plural(r.refused, "record")} could not be saved: see Waiting to sync`);
    }
  }, [userId, synced, read]);

  useEffect(() => {
    if (userId === undefined) return;
    installWorker().catch((e) => console.warn("offline worker not installed", e));
    mounted.current = true;
    const onRead = () => read().catch((e) => console.error("offline queue", e));
    // Another tab changed the queue; when it sent records, this tab's list shows them too.
    const stopNews = onNews((news) => {
      onRead();
      if (news.synced) synced.current();
    });
    const onLine = () => {
      setOnline(navigator.onLine);
      sync().catch(console.error);
    };
    const timer = setInterval(onLine, RETRY_MS);
    setOnline(navigator.onLine);
    read().then(sync).catch((e) => console.error("offline queue", e));
    addEventListener("online", onLine);
    addEventListener("offline", onLine);
    addEventListener(OFFLINE_QUEUE_EVENT, onRead);
    return () => {
      mounted.current = false;
      stopNews();
      clearInterval(timer);
      clearTimeout(backoff.current.timer);
      removeEventListener("online", onLine);
      removeEventListener("offline", onLine);
      removeEventListener(OFFLINE_QUEUE_EVENT, onRead);
    };
  }, [userId, sync, read, synced]);

  const retry = async (rec: QueuedRecord) => {
    await (await code())[0].setConflict(rec, undefined);
    await sync();
  };
  const discard = async (rec: QueuedRecord) => (await code())[0].removeQueued(rec.seq);
  return { records, online, signIn, retry, discard };
}
