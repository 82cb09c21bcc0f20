import { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { errorCodes } from "@/lib/core/errors";
import type { LimitClass } from "@/lib/limits/rate-limit";
import type { Upload } from "./upload";

// The shape of one operation of the registry (lib/api/operations.ts): its path, input schemas, documented
// responses and the domain call that answers it; `define()` fills in what an operation may leave out, and the
// error statuses and body every operation documents.

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ErrorStatus = 401 | 402 | 403 | 404 | 409 | 422 | 429 | 500 | 503 | 507;

const none = z.strictObject({});
type None = typeof none;

type Success<R extends z.ZodType> =
  | { status: 200 | 201 | 202; schema: R; description: string }
  | { status: 302; description: string }
  /** An image: the HTTP answer is its bytes, MCP's an image content with `schema`'s metadata. */
  | { status: 200; media: readonly `image/${string}`[]; schema: R; description: string };

/** What an operation answering an image runs to: its metadata (the success schema's output) and bytes. */
export type ImageResult = { data: Buffer; contentType: string; etag: string; immutable: boolean };

type OperationInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  ctx: Ctx;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
};

export type Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = {
  id: string;
  method: HttpMethod;
  /** Relative to /api/v1, with {name} for path parameters. */
  path: string;
  tag: "Authoring" | "Decks" | "Versions" | "Exports" | "Brands" | "Assets";
  summary: string;
  /** Written for a person reading the reference and for a model choosing a tool. */
  description: string;
  params: P;
  query: Q;
  /** Absent for operations that take no body; a body sent anyway is ignored. */
  body?: B;
  /**
   * The body is a file (lib/api/upload.ts): the raw bytes, multipart/form-data, or JSON with the bytes in
   * base64 as `body` describes it (what MCP sends); this many bytes of file at most.
   */
  upload?: Upload;
  success: Success<R>;
  errors: readonly ErrorStatus[];
  limit: LimitClass;
  /** "immutable": what it answers never changes (a version), so callers may keep it for good. */
  cache?: "immutable";
  /**
   * A list answered a page at a time: `run` answers a Page of the success schema's items; the API sends the
   * items as the body and the next page's URL in a Link header (rel="next"), MCP { items, nextCursor }.
   */
  paged?: true;
  /**
   * What a write does, for MCP's tool annotations (a GET writes nothing): idempotent when a second identical
   * call changes nothing more; destructive when it may change or remove what exists rather than only add.
   * tests/integration/mcp-annotations.test.ts calls each tool twice and checks both against the database.
   */
  writes?: { idempotent: boolean; destructive: boolean };
  /** It reaches outside Deckhand: fetches a website or images, or calls a model. */
  openWorld?: true;
  /**
   * Answers with the success schema's output, the redirect target of a 302, a Page of a paged list, or an image.
   * Declared as a method so that any operation is an `Operation` (its input read through the operation's own
   * schemas first): the routes, the OpenAPI document and MCP walk the list without casts.
   */
  run(input: OperationInput<P, Q, B>): Promise<z.output<R> | string | Page | (z.output<R> & ImageResult)>;
};

/** One page of a paged list, and the cursor of the next page (null on the last one). */
export type Page<T = unknown> = { items: T[]; nextCursor: string | null };

export function define<
  P extends z.ZodType = None,
  Q extends z.ZodType = None,
  B extends z.ZodType = None,
  R extends z.ZodType = z.ZodType,
>(
  spec: Omit<Operation<P, Q, B, R>, "params" | "query" | "limit" | "id"> & {
    params?: P;
    query?: Q;
    limit?: LimitClass;
  },
): Omit<Operation<P, Q, B, R>, "id"> {
  if ((spec.method === "GET") === Boolean(spec.writes)) {
    throw new Error(`${spec.path}: a GET writes nothing, and every other method says what it writes`);
  }
  return {
    ...spec,
    params: spec.params ?? (none as unknown as P),
    query: spec.query ?? (none as unknown as Q),
    limit: spec.limit ?? "default",
  };
}

// The spec's error body; code is one of lib/core/errors.ts's codes.
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    featureId: z.string().optional(),
    requestId: z.string().optional(),
  }),
});

/** The failures a read and a write may answer. */
export const READ: ErrorStatus[] = [401, 403, 404, 422, 429, 500];
export const WRITE: ErrorStatus[] = [401, 402, 403, 404, 422, 429, 500];
