import type { AppError, ErrorCode } from "@/lib/core/errors";

// The HTTP status of each error code (lib/core/errors.ts), as the spec lists them: the route wrapper
// (lib/api/handler.ts) answers an AppError with it, the OpenAPI document and the MCP server's error
// results name it. HTTP belongs to the adapters; the domain throws codes only.

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
  // The spec's status list for create_brand_from_url has no 402.
  quota_exceeded: 429,
  internal: 500,
  // 500s with their own codes: the spec's status lists for generate and edit have no 502/504.
  ai_failed: 500,
  ai_timeout: 500,
  service_unavailable: 503,
  insufficient_storage: 507,
} as const satisfies Record<ErrorCode, number>;

/** The HTTP status an AppError is answered with. */
export function statusOf(error: AppError): number {
  return errorStatus[error.code];
}
