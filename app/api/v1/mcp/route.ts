import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { withApiKey } from "@/lib/api/handler";
import { createMcpServer } from "@/lib/mcp/server";

// POST /api/v1/mcp — the Model Context Protocol over Streamable HTTP, stateless (no session to keep, so any
// instance answers any request) with JSON responses. Authenticated and rate-limited like every API route.

// Tools such as generate_deck and export_deck can run for minutes.
export const maxDuration = 300;

export const POST = withApiKey(async ({ req, ctx, requestId }) => {
  const server = createMcpServer(ctx, requestId);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
});
