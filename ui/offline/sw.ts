/**
 * The service worker (served as /sw.js by api/offline.ts, which prepends `PRECACHE` and `VERSION`): the
 * inspection page opens with the network gone. Hashed assets the page may load (its islands and the
 * dialogs it opens) are cached at install; the job's page and its data are cached as they are fetched
 * online and answered from the cache when the network fails. Writes are never touched: the page
 * queues them itself (ui/offline/queue.ts).
 */

// The worker's globals, typed here: deno.json's libs are the window's.
interface SwScope {
  addEventListener(type: string, fn: (e: any) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}
const sw = globalThis as unknown as SwScope;
declare const PRECACHE: string[];
declare const VERSION: string;

const ASSETS = `assets-${VERSION}`;
/** The job pages and their data, kept across versions (only the latest answer of each URL). */
const PAGES = "pages";
/** Answers kept at most: every search and page of a list is its own URL. */
const MAX_PAGES = 200;

/** What is answered from the cache when the network fails: the job's page, its list and the parts. */
function cachedOffline(url: URL): boolean {
  return url.pathname === "/pt/inspection" || url.pathname === "/api/pt/inspections" ||
    url.pathname === "/api/parts";
}

sw.addEventListener("install", (e) => {
  e.waitUntil(caches.open(ASSETS).then((c) => c.addAll(PRECACHE)).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("assets-") && k !== ASSETS).map((k) => caches.delete(k)))
      )
      .then(() => sw.clients.claim()),
  );
});

/** The network's answer, kept for later; the kept one when the network fails. */
async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(PAGES);
  try {
    const res = await fetch(request);
    if (res.ok && !res.redirected) {
      await cache.put(request, res.clone());
      const keys = await cache.keys();
      // Oldest first (keys come in insertion order).
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(k);
    }
    return res;
  } catch (e) {
    const kept = await cache.match(request) ?? await sameJob(cache, new URL(request.url));
    if (kept) return kept;
    throw e;
  }
}

/**
 * A kept page of the same job when this URL's own answer was never kept: the table rewrites the URL
 * with its paging and sort, and a reload offline should still open the job.
 */
async function sameJob(cache: Cache, url: URL): Promise<Response | undefined> {
  const job = url.searchParams.get("job_id");
  if (url.pathname !== "/pt/inspection" || !job) return undefined;
  const keys = await cache.keys();
  // Newest first: the latest answer kept for the job.
  for (const k of [...keys].reverse()) {
    const u = new URL(k.url);
    if (u.pathname === url.pathname && u.searchParams.get("job_id") === job) return await cache.match(k);
  }
  return undefined;
}

async function cacheFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) await (await caches.open(ASSETS)).put(request, res.clone());
  return res;
}

sw.addEventListener("fetch", (e) => {
  const request: Request = e.request;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  // Signing out forgets the pages and data kept for this browser's user (queued writes stay: they are
  // the user's own and sync when they sign in again).
  if (request.method === "POST" && url.pathname === "/signout") {
    e.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/assets/")) e.respondWith(cacheFirst(request));
  else if (cachedOffline(url)) e.respondWith(networkFirst(request));
});

/** A page opened before the worker controlled it asks for itself to be kept (its first visit). */
sw.addEventListener("message", (e) => {
  const url = typeof e.data?.keep === "string" ? new URL(e.data.keep, sw.location.origin) : undefined;
  if (url && url.origin === sw.location.origin && cachedOffline(url)) {
    e.waitUntil(
      networkFirst(new Request(url, { credentials: "same-origin" })).catch(() => undefined)
        .then(() => e.ports[0]?.postMessage("kept")),
    );
  }
});
