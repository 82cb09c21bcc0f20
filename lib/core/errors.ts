// One error type for the whole service. Domain code throws `new AppError(code, message)`;
// the route wrapper turns it into the spec's JSON body with the status from `errorStatus`.

export const errorStatus = {
  unauthorized: 401,
  allowance_exhausted: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_request: 422,
  payload_too_large: 422,
  compile_failed: 422,
  rate_limited: 429,
  // A monthly allowance used up on an endpoint whose spec lists no 402 (create_brand_from_url).
  quota_exceeded: 429,
  internal: 500,
  // The AI model failed, refused, or produced no module that compiles after the repairs allowed; and the
  // model did not answer within AI_TIMEOUT_MS. 500s with their own codes: the spec's status lists for
  // generate and edit have no 502/504.
  ai_failed: 500,
  ai_timeout: 500,
  // What the service stands on failed, not the request (lib/core/faults.ts): the database could not be
  // reached or would not run it now, or a disk is full. Both carry Retry-After.
  service_unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

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

  get status(): number {
    return errorStatus[this.code];
  }
}
