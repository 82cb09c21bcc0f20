import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { errorResponse } from "@/lib/api/handler";

// Any /api/v1 path that no other route matches: a JSON 404 in the API's error shape, not an HTML page.
function notFound(req: Request): Response {
  const requestId = randomUUID();
  const path = new URL(req.url).pathname;
  const response = errorResponse(
    new AppError("not_found", `There is no endpoint ${req.method} ${path}. The endpoints are listed at /docs/api.`),
    requestId,
  );
  response.headers.set("X-Request-Id", requestId);
  return response;
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
