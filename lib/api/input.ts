import type { z } from "zod";
import { ApiError } from "./errors";

// Request bodies larger than this are refused while streaming, before any parsing.
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

// Reads the body as JSON with a byte limit, then validates it. An empty body counts as `{}` so
// endpoints whose fields are all optional accept a bare POST.
export async function readJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();

  let text = "";
  if (req.body) {
    const reader = req.body.getReader();
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let received = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > MAX_BODY_BYTES) {
          await reader.cancel();
          throw tooLarge();
        }
        text += decoder.decode(value, { stream: true });
      }
      text += decoder.decode();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("invalid_request", "The request body is not valid UTF-8 text.");
    }
  }

  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError("invalid_request", `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  return parseInput(schema, value, "body");
}

// Query parameters are validated like a body: unknown or repeated parameters are refused.
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = new URL(req.url).searchParams;
  const query: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in query) throw new ApiError("invalid_request", `Query parameter "${name}" is given more than once.`);
    query[name] = value;
  }
  return parseInput(schema, query, "query");
}

export function readParams<S extends z.ZodType>(params: unknown, schema: S): z.output<S> {
  return parseInput(schema, params, "path");
}

// Validates a value with a schema; a failure is a 422 naming each field (at most five), prefixed by `where`.
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        return `${where}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
      }
      const path = issue.path.length ? `${where}.${issue.path.join(".")}` : where;
      return `${path}: ${issue.message}`;
    })
    .join("; ");
  throw new ApiError("invalid_request", message);
}

function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
}
