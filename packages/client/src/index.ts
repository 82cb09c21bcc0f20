import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { components, operations, paths } from "./openapi.js";

// @deckhand/client: a typed client of the Deckhand API. Its types are generated from the OpenAPI document
// (src/openapi.ts, by the service's `npm run client:generate`); requests go through openapi-fetch with exact
// types (a field the API does not take is a type error). It retries 429s after the server's Retry-After, and
// network failures of idempotent requests (a failure left is a DeckhandError with code "network"); it keeps
// the reads it got with their ETag and revalidates them, so a 304 answers the body it holds; exportDeck waits
// for an export; downloadExport follows the download's 302 itself; listAllDecks follows list_decks' pages.

export type { components, operations, paths };
type Schemas = components["schemas"];
export type Deck = Schemas["Deck"];
export type DeckDetail = Schemas["DeckDetail"];
export type DeckVersion = Schemas["DeckVersion"];
export type DeckVersionSummary = Schemas["DeckVersionSummary"];
export type VersionWriteResult = Schemas["VersionWriteResult"];
export type Export = Schemas["Export"];
export type Brand = Schemas["Brand"];
export type BrandDetail = Schemas["BrandDetail"];
export type DeckCheck = Schemas["DeckCheck"];
export type Finding = Schemas["Finding"];
export type DeckAnalytics = Schemas["DeckAnalytics"];
export type ShareLink = Schemas["ShareLink"];
export type Asset = Schemas["Asset"];
export type ErrorBody = Schemas["Error"];
export type ErrorCode = ErrorBody["error"]["code"];

export class DeckhandError extends Error {
  constructor(
    readonly status: number,
    /**
     * The API's code; "network" when the API could not be reached (status 0); "not_modified" for a 304 the
     * client holds no body for (an If-None-Match of the caller's own): the body the caller holds is current.
     */
    readonly code: ErrorCode | "network" | "not_modified",
    message: string,
    readonly featureId?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "DeckhandError";
  }
}

export type DeckhandClientOptions = {
  /** The API's base URL, ending in /api/v1. */
  baseUrl: string;
  apiKey: string;
  /** Retries of a 429 (after Retry-After) or of a network failure of GET/PUT/DELETE. Default 3. */
  maxRetries?: number;
  /** A 429 whose Retry-After is longer than this is not waited for. Default 60. */
  maxRetryAfterSeconds?: number;
  fetch?: typeof globalThis.fetch;
  /** How many reads to keep with their ETag, revalidated with If-None-Match (a 304 answers the kept body). Default 100; 0 keeps none. */
  etagCacheSize?: number;
};

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// fetch with the retry policy; each attempt sends a fresh copy of the request (a body is read once).
export function retryingFetch(
  base: typeof globalThis.fetch,
  {
    maxRetries = 3,
    maxRetryAfterSeconds = 60,
  }: Pick<DeckhandClientOptions, "maxRetries" | "maxRetryAfterSeconds"> = {},
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        if (attempt >= maxRetries || !IDEMPOTENT.has(request.method)) throw networkError(request, error);
        await sleep(250 * 2 ** attempt);
        continue;
      }
      const retryAfter = Number(response.headers.get("retry-after"));
      if (response.status !== 429 || attempt >= maxRetries || !(retryAfter >= 0) || retryAfter > maxRetryAfterSeconds) {
        return response;
      }
      await response.body?.cancel();
      await sleep(retryAfter * 1000);
    }
  };
}

// A request that got no answer (refused, reset, DNS), as a DeckhandError; the caller's abort stays an abort.
function networkError(request: Request, error: unknown): unknown {
  if (error instanceof DeckhandError || (error instanceof Error && error.name === "AbortError")) return error;
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new DeckhandError(0, "network", `Could not reach ${new URL(request.url).origin}: ${cause}`);
}

type Kept = { etag: string; body: ArrayBuffer; headers: Headers };

/**
 * fetch that keeps the last JSON body of each read with its ETag (up to `size`, the oldest forgotten first), sends
 * its tag as If-None-Match, and answers a 304 for a tag it holds with that body as a 200. A 304 for a tag the
 * caller sent and the client does not hold passes through (unwrap throws "not_modified").
 */
export function revalidatingFetch(base: typeof globalThis.fetch, size = 100): typeof globalThis.fetch {
  const kept = new Map<string, Kept>();
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== "GET" || size <= 0) return base(request);
    const held = kept.get(request.url);
    if (held && !request.headers.has("if-none-match")) request.headers.set("if-none-match", held.etag);
    const response = await base(request);
    const etag = response.headers.get("etag");
    if (response.status === 304 && held && etag === held.etag) {
      kept.delete(request.url);
      kept.set(request.url, held);
      return new Response(held.body.slice(0), { status: 200, headers: held.headers });
    }
    if (response.status === 200 && etag && response.body && /json/.test(response.headers.get("content-type") ?? "")) {
      const body = await response.arrayBuffer();
      kept.delete(request.url);
      kept.set(request.url, { etag, body, headers: response.headers });
      if (kept.size > size) kept.delete(kept.keys().next().value!);
      return new Response(body.slice(0), { status: 200, headers: response.headers });
    }
    return response;
  };
}

// The data of a successful call, or a DeckhandError carrying the API's code, status and featureId.
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok || result.response.status === 302) return result.data as T;
  if (result.response.status === 304) {
    throw new DeckhandError(
      304,
      "not_modified",
      "Not modified: the body of the ETag sent in If-None-Match is current.",
    );
  }
  const body = result.error as Partial<ErrorBody> | undefined;
  const error = body?.error;
  throw new DeckhandError(
    result.response.status,
    error?.code ?? "internal",
    error?.message ?? `HTTP ${result.response.status}`,
    error?.featureId,
    error?.requestId ?? result.response.headers.get("x-request-id") ?? undefined,
  );
}

// An answer read outside openapi-fetch: a failure thrown as unwrap throws it.
async function throwIfFailed(response: Response): Promise<void> {
  let error: unknown;
  try {
    error = JSON.parse(await response.text());
  } catch {
    error = undefined;
  }
  unwrap({ error, response });
}

type Method = "get" | "put" | "post" | "patch" | "delete";
type Media = `${string}/${string}`;
/** The paths that have an operation for this method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];
type InitOf<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M & keyof paths[P]>;
type InitArgs<I> = undefined extends I ? [init?: Exclude<I, undefined>] : [init: I];

/**
 * openapi-fetch's method with the request options resolved from the path alone, so TypeScript checks an
 * object literal exactly: a body field, query parameter or path parameter the API does not know is an error
 * (openapi-fetch infers the options from the argument, which lets unknown fields through).
 */
export type ExactMethod<M extends Method> = <P extends PathsWith<M>>(
  url: P,
  ...init: InitArgs<InitOf<P, M>>
) => Promise<FetchResponse<NonNullable<paths[P][M & keyof paths[P]]>, Exclude<InitOf<P, M>, undefined>, Media>>;

export type DeckhandApi = {
  GET: ExactMethod<"get">;
  PUT: ExactMethod<"put">;
  POST: ExactMethod<"post">;
  PATCH: ExactMethod<"patch">;
  DELETE: ExactMethod<"delete">;
  use: Client<paths>["use"];
};

/** A request body of an operation, by path and method: `Body<"/decks", "post">`. */
export type Body<P extends keyof paths, M extends Method> = paths[P][M & keyof paths[P]] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;

export type DeckhandClient = ReturnType<typeof createDeckhandClient>;

const DOWNLOAD_PATH = /\/exports\/[^/]+\/download$/;

export function createDeckhandClient(options: DeckhandClientOptions) {
  const fetchImpl = revalidatingFetch(retryingFetch(options.fetch ?? globalThis.fetch, options), options.etagCacheSize);
  const baseUrl = options.baseUrl.replace(/\/$/, "");
  const client: Client<paths> = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: fetchImpl,
  });
  // GET /exports/{id}/download answers a 302 to the file: it is not followed (the file is not JSON, and the
  // link needs no key), so the raw call answers the redirect, with the link in its Location header.
  client.use({
    onRequest: ({ request }) =>
      request.method === "GET" && DOWNLOAD_PATH.test(new URL(request.url).pathname)
        ? new Request(request, { redirect: "manual" })
        : undefined,
  });
  const api = client as unknown as DeckhandApi;

  /** Polls get_export until the export is completed (returned) or failed (a DeckhandError with its reason). */
  async function waitForExport(id: string, { timeoutMs = 120_000, intervalMs = 500 } = {}): Promise<Export> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = unwrap(await api.GET("/exports/{id}", { params: { path: { id } } }));
      if (current.status === "completed") return current;
      if (current.status === "failed") {
        throw new DeckhandError(409, "conflict", `Export ${id} failed: ${current.error ?? "unknown error"}`);
      }
      if (Date.now() + intervalMs > deadline) {
        throw new DeckhandError(409, "conflict", `Export ${id} is still ${current.status} after ${timeoutMs} ms.`);
      }
      await sleep(intervalMs);
    }
  }

  /**
   * The short-lived link of a completed export's file: download_export's 302, not followed. The link needs no
   * key; a 409 (not completed yet) or any other error is a DeckhandError.
   */
  async function exportDownloadUrl(id: string): Promise<string> {
    const response = await fetchImpl(`${baseUrl}/exports/${encodeURIComponent(id)}/download`, {
      headers: { Authorization: `Bearer ${options.apiKey}` },
      redirect: "manual",
    });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      return new URL(location, response.url || baseUrl).href;
    }
    await throwIfFailed(response);
    throw new DeckhandError(response.status, "internal", `download_export answered ${response.status} without a link`);
  }

  /**
   * One slide as an image (get_slide_image): its bytes, content type and ETag (the hash of its render: equal
   * tags, identical pictures). Options: version (default the newest), width (default 1280), format.
   */
  async function slideImage(
    deckId: string,
    slide: number,
    query: NonNullable<operations["get_slide_image"]["parameters"]["query"]> = {},
  ): Promise<{ bytes: Uint8Array; contentType: string | null; etag: string | null }> {
    const url = new URL(`${baseUrl}/decks/${encodeURIComponent(deckId)}/slides/${slide}/image`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const response = await fetchImpl(url, { headers: { Authorization: `Bearer ${options.apiKey}` } });
    if (!response.ok) await throwIfFailed(response);
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get("content-type"),
      etag: response.headers.get("etag"),
    };
  }

  /** The rendered file of a completed export: the 302's link fetched without the key (it needs none). */
  async function downloadExport(id: string): Promise<{ bytes: Uint8Array; contentType: string | null; url: string }> {
    const url = await exportDownloadUrl(id);
    const response = await (options.fetch ?? globalThis.fetch)(url).catch((error: unknown) => {
      throw networkError(new Request(url), error);
    });
    if (!response.ok) {
      throw new DeckhandError(response.status, "internal", `The export's file answered ${response.status}.`);
    }
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get("content-type"),
      url,
    };
  }

  /** create_export, then waitForExport: the completed export. */
  async function exportDeck(
    deckId: string,
    body: Body<"/decks/{id}/exports", "post">,
    wait?: { timeoutMs?: number; intervalMs?: number },
  ): Promise<Export> {
    const queued = unwrap(await api.POST("/decks/{id}/exports", { params: { path: { id: deckId } }, body }));
    return waitForExport(queued.id, wait);
  }

  /**
   * Every deck list_decks answers for `query`, a page at a time (`limit`, default 100 decks a request),
   * following each answer's Link header (rel="next") until the last page: `for await (const deck of
   * deckhand.listAllDecks({ scope: "org" }))`.
   */
  async function* listAllDecks(query: DeckListQuery = {}): AsyncGenerator<Deck, void, undefined> {
    let page: DeckListQuery | undefined = { limit: 100, ...query };
    while (page) {
      const result = await api.GET("/decks", { params: { query: page } });
      yield* unwrap(result);
      const next = nextPageUrl(result.response.headers.get("link"), result.response.url || baseUrl);
      page = next ? { ...page, cursor: next.searchParams.get("cursor") ?? undefined } : undefined;
    }
  }

  return { api, waitForExport, exportDownloadUrl, downloadExport, exportDeck, slideImage, listAllDecks };
}

/** list_decks' query parameters. */
export type DeckListQuery = NonNullable<operations["list_decks"]["parameters"]["query"]>;

// The target of a Link header's rel="next" (RFC 8288), resolved against the answer's URL.
function nextPageUrl(link: string | null, base: string): URL | undefined {
  for (const value of link?.split(/,(?=\s*<)/) ?? []) {
    const [, target, rel] = /^\s*<([^>]*)>.*;\s*rel\s*=\s*"?([^";]*)/i.exec(value) ?? [];
    if (target !== undefined && rel?.toLowerCase().split(/\s+/).includes("next")) return new URL(target, base);
  }
  return undefined;
}
