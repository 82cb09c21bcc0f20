// One error type for the whole service. Domain code throws `new AppError(code, message)` with one of the
// stable codes below (the spec's error codes, its public contract); the adapters say what a code means in
// their protocol: the HTTP status of each is in lib/api/status.ts, where the route wrapper answers it.

export const errorCodes = [
  "unauthorized",
  // A monthly allowance used up.
  "allowance_exhausted",
  "forbidden",
  "not_found",
  "conflict",
  "invalid_request",
  "payload_too_large",
  "compile_failed",
  "rate_limited",
  // A monthly allowance used up on an endpoint whose spec lists no 402 (create_brand_from_url).
  "quota_exceeded",
  "internal",
  // The AI model failed, refused, or produced no module that compiles after the repairs allowed; and the
  // model did not answer within AI_TIMEOUT_MS.
  "ai_failed",
  "ai_timeout",
  // What the service stands on failed, not the request (lib/core/faults.ts): the database could not be
  // reached or would not run it now, or a disk is full. Both carry Retry-After.
  "service_unavailable",
  "insufficient_storage",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Whether a string (say, one stored with a failed job) is one of the codes. */
export function isErrorCode(code: string): code is ErrorCode {
  return (errorCodes as readonly string[]).includes(code);
}

/** The codes that refuse what the caller sent (the input, its size, the module), not the caller or the service. */
export function isInputRefusal(error: AppError): boolean {
  return error.code === "invalid_request" || error.code === "payload_too_large" || error.code === "compile_failed";
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly featureId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { featureId?: string; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.featureId = options.featureId;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
