/**
 * `node:worker_threads` in the browser's bundle (vite.config.ts's alias). Islands import zod schemas from api
 * modules (e.g. api/pt/jobs/schemas.ts), which share a file with server code that reaches lib/event_loop.ts;
 * the bundle drops that code as unused, but the import is still resolved. Nothing in the browser may use it.
 */
export class MessageChannel {
  constructor() {
    throw new Error("node:worker_threads is server-only (lib/event_loop.ts)");
  }
}
