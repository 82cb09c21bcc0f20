// One error type for the whole service. Domain code throws `new ApiError(code, message)`;
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
  internal: 500,
  // The AI model failed, refused, or produced no module that compiles after the repairs allowed.
  ai_failed: 502,
  // The AI model did not answer within AI_TIMEOUT_MS.
  ai_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly featureId: string | undefined;

  constructor(code: ErrorCode, message: string, options: { featureId?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.featureId = options.featureId;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
