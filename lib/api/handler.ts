import { randomUUID } from "node:crypto";
import { z } from "zod";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import type { Ctx } from "@/lib/auth/caller";
import { getDb } from "@/lib/db/client";
import { ApiError } from "./errors";

// The one wrapper every /api/v1 handler goes through: it authenticates the bearer key, gives the
// handler its context, and turns whatever is thrown into the spec's JSON error body.

type RouteParams = Record<string, string | string[] | undefined>;

export type ApiHandlerArgs<P extends RouteParams> = {
  req: Request;
  params: P;
  ctx: Ctx;
};

export type RouteContext<P extends RouteParams> = { params: Promise<P> };

export function withApiKey<P extends RouteParams = Record<string, never>>(
  handler: (args: ApiHandlerArgs<P>) => Promise<Response>,
): (req: Request, context: RouteContext<P>) => Promise<Response> {
  return async (req, context) => {
    const requestId = req.headers.get("x-request-id")?.slice(0, 128) || randomUUID();
    let response: Response;
    try {
      const db = await getDb();
      const caller = await authenticateApiKey(db, req.headers.get("authorization"));
      response = await handler({ req, params: await context.params, ctx: { db, caller } });
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    response.headers.set("X-Request-Id", requestId);
    return response;
  };
}

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers });
}

export function errorResponse(error: unknown, requestId: string): Response {
  const apiError = toApiError(error, requestId);
  const body: { error: { code: string; message: string; featureId?: string; requestId?: string } } = {
    error: { code: apiError.code, message: apiError.message },
  };
  if (apiError.featureId) body.error.featureId = apiError.featureId;
  if (apiError.code === "internal") body.error.requestId = requestId;
  return json(body, apiError.status);
}

function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError)
    return new ApiError("invalid_request", error.issues.map((i) => i.message).join("; "));
  // Unknown failures are logged with the request id and answered without internals.
  console.error(JSON.stringify({ level: "error", requestId, message: String(error), stack: (error as Error)?.stack }));
  return new ApiError("internal", `Unexpected server error (request ${requestId}).`);
}
