/**
 * A real turn of the event loop for other requests. Local libSQL runs statements synchronously and settles
 * its promises as microtasks, so a chain of awaits on it never lets the runtime read another request, of any
 * tenant, or answer `/healthz`; only a timer does. Used between write groups, download pages and handed-over
 * request turns.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
