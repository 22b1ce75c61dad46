export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    /** the whole JSON answer, for refusals that carry more than a sentence (e.g. `figures`) */
    readonly body: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

/**
 * A save refused because the record changed since the form read it (412, decision 038): `current` is the
 * record as it is now, with its `version`.
 */
export class ConflictError extends ApiError {
  constructor(detail: string, readonly current: Record<string, unknown> & { version: number }) {
    super(412, detail);
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * JSON calls to /api with the session cookie. A 401 sends the user to sign in, remembering the page;
 * any other failure throws ApiError carrying the server's `detail` and field errors.
 */
export async function api<T = unknown>(
  path: string,
  opts: {
    method?: string;
    json?: unknown;
    query?: Query;
    form?: Record<string, string>;
    signal?: AbortSignal;
    /** more request headers (`idempotency-key`) */
    headers?: Record<string, string>;
    /** the version of the record the form was filled from: sent as If-Match (a 412 throws ConflictError) */
    version?: number;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (opts.version !== undefined) headers["if-match"] = `"${opts.version}"`;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = new URLSearchParams(opts.form);
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method: opts.method ?? "GET",
      headers,
      body,
      credentials: "same-origin",
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiError(0, "The server could not be reached. Check your connection and try again.");
  }
  if (res.status === 401 && !path.includes("/login/")) {
    location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new ApiError(401, "Please sign in again.");
  }
  if (res.status === 204) return undefined as T;
  const data = await res.json().catch(() => undefined);
  if (res.status === 412 && data?.current) throw new ConflictError(data.detail, data.current);
  if (!res.ok) {
    throw new ApiError(
      res.status,
      data?.detail ?? "Oops something went wrong!",
      data?.errors ?? [],
      data ?? {},
    );
  }
  return data as T;
}

/** Field errors by path, for showing the server's 422 messages next to their fields. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError) { for (const e of err.errors) out[e.path] ??= e.message; }
  return out;
}

/** Saves a download answered by `path` (xlsx, pdf) under the server's file name. */
export async function download(path: string, query?: Query) {
  const res = await fetch(withQuery(path, query), { credentials: "same-origin" });
  if (!res.ok) {
    const data = await res.json().catch(() => undefined);
    throw new ApiError(res.status, data?.detail ?? "Download failed");
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "download";
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
