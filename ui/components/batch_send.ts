import { ApiError } from "../lib/api.ts";

/** Upload progress in percent; null once the body is sent and the server is working. */
export type OnProgress = (percent: number | null) => void;

/**
 * A POST (or `method`) to /api with upload progress (fetch reports none): JSON text or multipart form
 * data. Fails like `api()`: a 401 goes to sign-in, anything else not ok throws ApiError with the
 * server's detail and field errors.
 */
export function sendWithProgress<T>(
  path: string,
  body: string | FormData,
  onProgress: OnProgress,
  method = "POST",
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader("accept", "application/json");
    if (typeof body === "string") xhr.setRequestHeader("content-type", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) {
        onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
      }
    };
    xhr.upload.onload = () => onProgress(null);
    xhr.onerror = () =>
      reject(new ApiError(0, "The server could not be reached. Check your connection and try again."));
    xhr.onload = () => {
      let data: { detail?: string; errors?: ApiError["errors"] } | undefined;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch { /* not JSON: the generic message below */ }
      if (xhr.status === 401) {
        location.assign(`/signin?next=${encodeURIComponent(location.pathname + location.search)}`);
        reject(new ApiError(401, "Please sign in again."));
      } else if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, data?.detail ?? "Oops something went wrong!", data?.errors ?? []));
      } else resolve(data as T);
    };
    onProgress(0);
    xhr.send(body);
  });
}
