import { DEFAULT_MAX_REQUEST_BODY_SIZE, readRequestBody } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { withApiKey } from "@/lib/api/handler";
import { createMcpServer } from "@/lib/mcp/server";

// POST /api/v1/mcp — the Model Context Protocol over Streamable HTTP, stateless (no session to keep, so any
// instance answers any request) with JSON responses. Authenticated and rate-limited like every API route.

// Tools such as generate_deck and export_deck can run for minutes.
export const maxDuration = 300;

export const POST = withApiKey(async ({ req, ctx, requestId }) => {
  // One JSON-RPC message per HTTP request. The rate limit counts HTTP requests (one from the key's window,
  // plus one from the slow window for each generate/edit/brand-extraction call), so a JSON-RPC batch — which
  // the SDK's transport accepts, up to 100 messages, whatever protocol version was negotiated — would run
  // up to 100 tool calls for the price of one request. Batches are refused rather than counted message by
  // message: MCP 2025-06-18 removed JSON-RPC batching (2025-11-25, the SDK's newest version, has none
  // either), the SDK's own clients never send one, and a stateless server gains nothing from them; counting
  // would also keep up to 100 long tool calls (generations, exports waiting for their file) running inside
  // one function invocation. The one kind of client this turns away is a 2025-03-26 client that batches;
  // it gets a JSON-RPC "Invalid Request" error, as the SDK answers its other refusals, and can send the same
  // messages one per request.
  const parsedBody = await peekJson(req);
  if (Array.isArray(parsedBody)) {
    return jsonRpcError(
      400,
      -32600,
      "Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request.",
    );
  }

  const server = createMcpServer(ctx, requestId);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    await server.close();
  }
});

// The body parsed from a copy of the request, with the transport's own size limit; undefined when it is too
// large or not JSON, so the transport reads the original and answers it exactly as it always did.
async function peekJson(req: Request): Promise<unknown> {
  const copy = req.clone();
  const body = await readRequestBody(copy, DEFAULT_MAX_REQUEST_BODY_SIZE);
  // The copy is done with: cancelled, it keeps nothing of what is read from the original after this (a body
  // too large is read and dropped before the answer: lib/api/input.ts). Not awaited: a branch's cancel settles
  // only when the original's is done too.
  copy.body?.cancel().catch(() => {});
  if (body.tooLarge) return undefined;
  try {
    return JSON.parse(body.text);
  } catch {
    return undefined;
  }
}

// A JSON-RPC error without an id, the shape the SDK's transport uses for the requests it refuses.
function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
