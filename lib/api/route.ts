import type { z } from "zod";
import { config } from "@/lib/core/config";
import { etagOf, notModified } from "@/lib/core/etag";
import { json, withApiKey } from "./handler";
import { parseInput, readJsonBody, readParams, readQuery } from "./input";
import { readUploadBody } from "./upload";
import type { ImageResult, Operation, Page } from "./operation";

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
      if ("media" in op.success) return image(req, result as ImageResult);
      const page = op.paged ? (result as Page) : undefined;
      const body = page ? page.items : result;
      const link: Record<string, string> = page?.nextCursor
        ? { Link: `<${nextPageUrl(req, page.nextCursor)}>; rel="next"` }
        : {};
      if (req.method === "GET" && op.success.status === 200) return conditional(req, body, op.cache, link);
      return json(body, op.success.status, link);
    },
    { limit: op.limit },
  );
}

// The next page of a paged list (RFC 8288): the request's own query with the next cursor, on the app's URL.
function nextPageUrl(req: Request, cursor: string): string {
  const url = new URL(req.url);
  url.searchParams.set("cursor", cursor);
  return `${config.appUrl}${url.pathname}${url.search}`;
}

// A read answers with an ETag of its body and 304 without one when the caller already has it. Responses
// are the caller's own (private, and varying with the key); they are revalidated each time unless what
// they show never changes (a version).
function conditional(
  req: Request,
  result: unknown,
  cache: "immutable" | undefined,
  extra: Record<string, string>,
): Response {
  const body = JSON.stringify(result);
  const headers = {
    ...extra,
    ETag: etagOf(body),
    "Cache-Control": cache === "immutable" ? "private, max-age=31536000, immutable" : "private, no-cache",
    Vary: "Authorization",
  };
  if (notModified(req, headers.ETag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
}

// An image answers its bytes with the ETag of its render (304 when the caller has it); one of a version
// named in the request never changes.
function image(req: Request, result: ImageResult): Response {
  const headers = {
    ETag: result.etag,
    "Cache-Control": result.immutable ? "private, max-age=31536000, immutable" : "private, no-cache",
    Vary: "Authorization",
  };
  if (notModified(req, result.etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(result.data), {
    status: 200,
    headers: { ...headers, "Content-Type": result.contentType, "Content-Length": String(result.data.length) },
  });
}
