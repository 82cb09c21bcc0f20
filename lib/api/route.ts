import type { z } from "zod";
import { json, withApiKey } from "./handler";
import { readJsonBody, readParams, readQuery } from "./input";
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
        query: readQuery(req, op.query),
        body: (op.body
          ? op.upload
            ? await readUploadBody(req, op.body, op.upload.maxBytes())
            : await readJsonBody(req, op.body)
          : {}) as z.output<B>,
      };
      const result = await op.run(input);
      if (op.success.status === 302) {
        return new Response(null, { status: 302, headers: { Location: String(result), "Cache-Control": "no-store" } });
      }
      return json(result, op.success.status);
    },
    { limit: op.limit },
  );
}
