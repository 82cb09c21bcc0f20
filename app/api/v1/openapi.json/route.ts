import { randomUUID } from "node:crypto";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/core/config";

// GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, public like any API reference.

let document: string | undefined;

export function GET(): Response {
  document ??= JSON.stringify(buildOpenApiDocument(`${config.appUrl}/api/v1`), null, 2);
  return new Response(document, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
      "X-Request-Id": randomUUID(),
    },
  });
}
