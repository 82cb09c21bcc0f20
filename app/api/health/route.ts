// GET /api/health — liveness: answers as soon as the server can run a route handler. It touches nothing
// else, so the load benchmark also uses it as the framework's own ceiling.

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
