import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./openapi";

// A typed client of the Deckhand API. Its types are generated from the OpenAPI document
// (lib/client/openapi.d.ts); requests go through openapi-fetch. It retries 429s after the server's
// Retry-After, and network failures of idempotent requests; waitForExport polls an export to the end.

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
export type Asset = Schemas["Asset"];
export type ErrorBody = Schemas["Error"];
export type ErrorCode = ErrorBody["error"]["code"];

export class DeckhandError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network",
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
        if (attempt >= maxRetries || !IDEMPOTENT.has(request.method)) throw error;
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

// The data of a successful call, or a DeckhandError carrying the API's code, status and featureId.
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok || result.response.status === 302) return result.data as T;
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

export type DeckhandClient = ReturnType<typeof createDeckhandClient>;

export function createDeckhandClient(options: DeckhandClientOptions) {
  const fetchImpl = retryingFetch(options.fetch ?? globalThis.fetch, options);
  const api: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: fetchImpl,
  });

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

  /** The rendered file of a completed export (the redirect is followed with the same key). */
  async function downloadExport(id: string): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    const result = await api.GET("/exports/{id}/download", { params: { path: { id } }, parseAs: "arrayBuffer" });
    unwrap(result);
    return {
      bytes: new Uint8Array(result.data as unknown as ArrayBuffer),
      contentType: result.response.headers.get("content-type"),
    };
  }

  /** create_export, then waitForExport: the completed export. */
  async function exportDeck(
    deckId: string,
    body: components["schemas"]["CreateExportRequest"],
    wait?: { timeoutMs?: number; intervalMs?: number },
  ): Promise<Export> {
    const queued = unwrap(await api.POST("/decks/{id}/exports", { params: { path: { id: deckId } }, body }));
    return waitForExport(queued.id, wait);
  }

  return { api, waitForExport, downloadExport, exportDeck };
}
