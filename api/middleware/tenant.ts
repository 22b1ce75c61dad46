import { createMiddleware } from "hono/factory";
import { type AppEnv, requestHost } from "../lib/context.ts";
import { AppError } from "../../lib/errors.ts";
import { freezeInBackground } from "../sales/issued/freeze.ts";
import { staticBody } from "../lib/static_body.ts";

/**
 * Host -> catalog -> open tenant database. A catalog file is read on every request (a local indexed read),
 * so the CLI's create, disable, enable and delete take effect without a restart; a catalog on a libSQL server
 * answers from its cache of host lookups, which a change anywhere empties within 2 s (decision 057). The database is held
 * until the answer is sent: an answer streamed from it (every row of a list, a download) keeps reading after
 * the handler returned, and a database let go meanwhile could be closed under it by the cache (a full cache
 * evicts the least recently used), which broke such answers halfway ("Failed query").
 */
export const tenantMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const s = c.get("services");
  const host = requestHost(c);
  const tenant = await s.catalog.resolveHost(host);
  if (!tenant) throw new AppError("not_found", "No business is served at this address.");
  if (tenant.status === "disabled") throw new AppError("forbidden", "This business account is suspended.");
  const { tdb, release } = await s.tenants.acquire(tenant);
  c.set("tenant", tdb);
  // Invoices issued before this release are frozen once after the upgrade, beside the requests (decision 040).
  freezeInBackground(tdb);
  try {
    await next();
  } catch (e) {
    release();
    throw e;
  }
  // A string or bytes answer is complete: let go now. A stream is held until it ends or is cancelled.
  const body = staticBody(c.res) === undefined ? c.res.body : null;
  if (!body) return release();
  c.res = new Response(heldUntilDone(body, release), c.res);
});

/** The same stream, calling `done` once when it ends, fails or its reader cancels it. */
function heldUntilDone(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        done();
        controller.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}
