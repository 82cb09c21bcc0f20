import { randomUUID } from "node:crypto";
import { z } from "zod";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { Ctx } from "@/lib/auth/caller";
import { getDb } from "@/lib/db/client";
import { type LimitClass, rateLimitError, rateLimitHeaders, takeRateLimit } from "@/lib/limits/rate-limit";
import { AppError } from "@/lib/core/errors";
import { statusOf } from "./status";
import { describeError, faultError, isConnectionFault } from "@/lib/core/faults";
import { discardUnreadBody, nulRefusedByDatabase } from "./input";
import { setting } from "@/lib/core/config";
import { logger, withRequestId } from "@/lib/core/log";

// The one wrapper every /api/v1 handler goes through: it authenticates the bearer key, gives the
// handler its context, and turns whatever is thrown into the spec's JSON error body.

const log = logger("api");

type RouteParams = Record<string, string | string[] | undefined>;

export type ApiHandlerArgs<P extends RouteParams> = {
  req: Request;
  params: P;
  ctx: Ctx;
  requestId: string;
};

export type RouteContext<P extends RouteParams> = { params: Promise<P> };

export function withApiKey<P extends RouteParams = Record<string, never>>(
  handler: (args: ApiHandlerArgs<P>) => Promise<Response>,
  options: { limit?: LimitClass } = {},
): (req: Request, context: RouteContext<P>) => Promise<Response> {
  return async (req, context) => {
    const started = performance.now();
    const requestId = sanitizeRequestId(req.headers.get("x-request-id")) ?? randomUUID();
    let limits: Record<string, string> = {};
    let caller: Awaited<ReturnType<typeof authenticateApiKey>> | undefined;
    const answer = (error: unknown) => errorResponse(error, requestId);
    const attempt = async () => {
      const db = await getDb();
      caller = await authenticateApiKey(db, req.headers.get("authorization"));
      const rate = await takeRateLimit(db, `key:${caller.apiKeyId}`, options.limit ?? "default");
      limits = rateLimitHeaders(rate);
      if (!rate.exceeded) return handler({ req, params: await context.params, ctx: { db, caller }, requestId });
      const refused = errorResponse(rateLimitError(rate), requestId);
      refused.headers.set("Retry-After", String(rate.resetSeconds));
      return refused;
    };
    // Every line logged while the request is served names it (lib/core/log.ts).
    const response = await withRequestId(requestId, async () => {
      try {
        return await attempt();
      } catch (error) {
        // A read that met a lost database connection is tried once more (the pool has dropped that
        // connection); a write is not, as it may have been applied (lib/core/faults.ts).
        return req.method === "GET" && isConnectionFault(error) ? await attempt().catch(answer) : answer(error);
      }
    });
    // A body the answer did not need (a refusal before it was read) is read and dropped first, so the answer
    // arrives instead of a connection reset (lib/api/input.ts).
    await discardUnreadBody(req);
    response.headers.set("X-Request-Id", requestId);
    for (const [name, value] of Object.entries(limits)) response.headers.set(name, value);
    logRequest({
      requestId,
      method: req.method,
      path: new URL(req.url).pathname,
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      org: caller?.organizationId,
      key: caller?.keyPrefix,
    });
    return response;
  };
}

// A caller's request id is echoed back only when it is short and plain.
function sanitizeRequestId(value: string | null): string | null {
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : null;
}

// One structured line per request: route, status, duration, organization and key prefix (never the key).
function logRequest(fields: Record<string, unknown>) {
  if (!setting("LOG_REQUESTS")) return;
  log.info("request", fields);
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

export function errorResponse(error: unknown, requestId: string): Response {
  const apiError = toAppError(error, requestId);
  const body: { error: { code: string; message: string; featureId?: string; requestId?: string } } = {
    error: { code: apiError.code, message: apiError.message },
  };
  if (apiError.featureId) body.error.featureId = apiError.featureId;
  if (apiError.code === "internal") body.error.requestId = requestId;
  const response = json(body, statusOf(apiError));
  if (apiError.retryAfterSeconds) response.headers.set("Retry-After", String(apiError.retryAfterSeconds));
  // RFC 9110 §11.6.1: a 401 names the scheme that would be accepted.
  if (statusOf(apiError) === 401) response.headers.set("WWW-Authenticate", "Bearer");
  return response;
}

export function toAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError)
    return new AppError("invalid_request", error.issues.map((i) => i.message).join("; "));
  // A NUL character is refused where input is parsed; one that still reached PostgreSQL (say, from a "\0"
  // escape the compiler turned into a slide label) is the caller's bad input too, not a server error. Logged
  // so the unchecked path can be found.
  const nul = nulRefusedByDatabase(error);
  if (nul) {
    log.warn("NUL character reached the database", { requestId });
    return nul;
  }
  // The database out of reach, or a full disk: 503 or 507 with Retry-After, logged with the cause named.
  const fault = faultError(error);
  if (fault) {
    const { stack: _stack, ...cause } = describeError(error);
    log.warn(fault.message, { requestId, code: fault.code, cause });
    return fault;
  }
  // Unknown failures are logged with the request id (never a failed query's parameters: a deck's source) and
  // answered without internals.
  log.error("unexpected error", { requestId, error });
  return new AppError("internal", `Unexpected server error (request ${requestId}).`);
}
