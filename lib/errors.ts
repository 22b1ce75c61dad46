export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "precondition_failed"
  | "too_large"
  | "invalid"
  | "throttled"
  | "insufficient_storage"
  | "unavailable";

export const STATUS: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 412 | 413 | 422 | 429 | 503 | 507> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  /** a stale `If-Match` (decision 038) */
  precondition_failed: 412,
  too_large: 413,
  invalid: 422,
  throttled: 429,
  unavailable: 503,
  insufficient_storage: 507,
};

export interface FieldError {
  path: string;
  message: string;
}

/** The one error type of the app: mapped to a status and `{detail, errors?}` in app.onError. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** More fields for the answer's body beside `detail` and `errors` (the availability figures). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
  get status() {
    return STATUS[this.code];
  }
}

/** A 422 naming one field, with the spec's message. */
export function invalid(path: string, message: string): AppError {
  return new AppError("invalid", message, [{ path, message }]);
}
