import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { NUL, nulMessage } from "@/lib/core/fields";

// Request bodies larger than this are refused while streaming, before any parsing.
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

// A refusal (a body over its limit, a bad key, a rate limit) can be ready while the client is still sending.
// A server that answers, stops reading and closes the connection (as Node.js does after its answer when the
// client sent `Connection: close`) makes its TCP stack answer the unread bytes with a reset, which the client
// sees instead of the answer (EPIPE, ECONNRESET, curl's "Connection reset by peer"). So before a refusal is
// answered, the rest of the body is read and dropped: nothing is kept, memory does not grow. Past this many
// bytes the body is cancelled instead, and a client still sending gets the reset.
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/** Reads at most `maxBytes` of the body; more is a 422 payload_too_large while streaming, before any parsing. */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await discardUnreadBody(req);
    throw tooLarge(maxBytes);
  }
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await discardRest(reader, received);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and drops what nobody has read of a body (see DISCARD_MAX_BYTES), before a request is answered without
 * all of it. Nothing happens when there is no body or a reader still holds it.
 */
export async function discardUnreadBody(req: Request): Promise<void> {
  if (!req.body || req.body.locked) return;
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > DISCARD_MAX_BYTES) {
    await req.body.cancel().catch(() => {});
    return;
  }
  await discardRest(req.body.getReader(), 0);
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, received: number): Promise<void> {
  try {
    for (let total = received; total <= DISCARD_MAX_BYTES;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to drop.
  }
}

// Reads the body as JSON with a byte limit, then validates it. An empty body counts as `{}` so
// endpoints whose fields are all optional accept a bare POST.
export async function readJsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes = MAX_BODY_BYTES,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await readBodyBytes(req, maxBytes));
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("invalid_request", "The request body is not valid UTF-8 text.");
  }

  let value: unknown = {};
  if (text.trim() !== "") {
    refuseNonJsonType(req.headers.get("content-type"));
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new AppError("invalid_request", `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  return parseInput(schema, value, "body");
}

/** Whether a Content-Type names JSON: application/json or a +json type, any parameters. */
function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

// A body is read as JSON only when it says it is JSON: a text/plain or form body (what a browser form or a
// fetch() with a bare string sends) is refused with the spec's 422 for input that fails validation.
function refuseNonJsonType(contentType: string | null): void {
  if (isJsonType(contentType)) return;
  throw new AppError(
    "invalid_request",
    `The request body must be JSON sent with Content-Type: application/json (got ${contentType ? JSON.stringify(contentType) : "no Content-Type"}).`,
  );
}

// Query parameters are validated like a body: unknown or repeated parameters are refused.
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = new URL(req.url).searchParams;
  const query: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in query) throw new AppError("invalid_request", `Query parameter "${name}" is given more than once.`);
    query[name] = value;
  }
  return parseInput(schema, query, "query");
}

export function readParams<S extends z.ZodType>(params: unknown, schema: S): z.output<S> {
  return parseInput(schema, params, "path");
}

// Validates a value with a schema; a failure is a 422 naming each field (at most five), prefixed by `where`
// ("body", "query"; "" for a server action's input). A NUL character anywhere in the value (a string or a
// field name) is refused first, whatever the schema.
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  refuseNul(value, where);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AppError("invalid_request", describeIssues(result.error, where));
}

/** A validation failure as a person reads it: each refused field (at most five) and why. */
export function describeIssues(error: z.ZodError, where: string): string {
  const prefix = where ? `${where}: ` : "";
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        return `${prefix}unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
      }
      const path = [where, ...issue.path.map(String)].filter((part) => part !== "").join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

// PostgreSQL refuses U+0000 in text and jsonb: a 422 naming the field (`where` and the path inside the value,
// such as "body.title") instead of a database error. Server actions that take text call it directly.
function refuseNul(value: unknown, where: string): void {
  const found = findNul(value);
  if (!found) return;
  // A path deeper than a person reads (a nested array, say) is cut short.
  const parts = [where, ...found.path].filter((part) => part !== "");
  const location = (parts.length > 8 ? [...parts.slice(0, 8), "…"] : parts).join(".") || "the input";
  throw new AppError(
    "invalid_request",
    found.key === undefined
      ? nulMessage(location)
      : `${location} has a field name ${JSON.stringify(found.key)} that contains a NUL character (\\u0000)`,
  );
}

type Visit = { value: unknown; name?: string | number; parent?: Visit };

// The first string or field name found holding a NUL character, with its path. Walks with its own stack and
// parent links, so a deeply nested JSON body neither overflows the call stack nor costs quadratic time.
export function findNul(value: unknown): { path: (string | number)[]; key?: string } | null {
  const stack: Visit[] = [{ value }];
  const pathOf = (visit: Visit) => {
    const path: (string | number)[] = [];
    for (let v: Visit | undefined = visit; v?.parent; v = v.parent) path.push(v.name!);
    return path.reverse();
  };
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === "string") {
      if (current.includes(NUL)) return { path: pathOf(visit) };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], name: i, parent: visit });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      const badKey = entries.find(([key]) => key.includes(NUL));
      if (badKey) return { path: pathOf(visit), key: badKey[0] };
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i]![1], name: entries[i]![0], parent: visit });
      }
    }
  }
  return null;
}

// PostgreSQL's answer to U+0000 in text (22021, invalid byte sequence) or in jsonb (22P05, unsupported Unicode
// escape) as the 422 it is, for a NUL that got past the checks above; null for any other error. Drivers and
// drizzle wrap the database's error, so the causes are followed.
export function nulRefusedByDatabase(error: unknown): AppError | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as Error).cause, depth++) {
    const { code, message, detail } = e as { code?: unknown; message?: unknown; detail?: unknown };
    if (
      (code === "22021" && String(message).includes("0x00")) ||
      (code === "22P05" && String(detail).includes("\\u0000"))
    ) {
      return new AppError(
        "invalid_request",
        "The input contains a NUL character (\\u0000), which cannot be stored (in a deck: a \\0 or \\u0000 escape in a string).",
        { cause: error },
      );
    }
  }
  return null;
}

function tooLarge(maxBytes = MAX_BODY_BYTES): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${formatBytes(maxBytes)}.`);
}

function formatBytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
