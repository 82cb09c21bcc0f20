import type { z } from "zod";
import { etagOf, notModified } from "@/lib/core/etag";
import { json, withApiKey } from "./handler";
import { parseInput, readJsonBody, readParams, readQuery } from "./input";
import { readUploadBody } from "./upload";
import type { Operation } from "./operations";

// The route handler of one operation: authenticate and rate-limit (withApiKey), validate path, query and
// body with the operation's schemas, run it, and answer with its documented status.
export function route<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  op: Operation<P, Q, B, R>,
) {
  return withApiKey<Record<string, string>>(
    async ({ req, params, ctx }) => {
      const input = {
        ctx,
        params: readParams(params ?? {}, op.params),
        // Fields given beside an uploaded file arrive in its query string: the upload reader takes them.
        query: op.upload?.fieldsBeside ? parseInput(op.query, {}, "query") : readQuery(req, op.query),
        body: (op.body
          ? op.upload
            ? await readUploadBody(req, op.body, op.upload)
            : await readJsonBody(req, op.body)
          : {}) as z.output<B>,
      };
      const result = await op.run(input);
      if (op.success.status === 302) {
        return new Response(null, { status: 302, headers: { Location: String(result), "Cache-Control": "no-store" } });
      }
      if (req.method === "GET" && op.success.status === 200) return conditional(req, result, op.cache);
      return json(result, op.success.status);
    },
    { limit: op.limit },
  );
}

// A read answers with an ETag of its body and 304 without one when the caller already has it. Responses
// are the caller's own (private, and varying with the key); they are revalidated each time unless what
// they show never changes (a version).
function conditional(req: Request, result: unknown, cache: "immutable" | undefined): Response {
  const body = JSON.stringify(result);
  const headers = {
    ETag: etagOf(body),
    "Cache-Control": cache === "immutable" ? "private, max-age=31536000, immutable" : "private, no-cache",
    Vary: "Authorization",
  };
  if (notModified(req, headers.ETag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
}
