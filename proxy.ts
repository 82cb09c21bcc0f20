import { NextResponse } from "next/server";
import { errorStatus } from "@/lib/api/status";
import { appSecurityHeaders, isAppPage, REQUEST_PATH_HEADER } from "@/lib/app/security-headers";

// Runs before routing for the app's pages and for paths holding a "%" (see the matcher).
// - A path whose percent-encoding does not decode (`/decks/%E0%A4%A`, `/d/100%`) would make Next.js fail
//   decoding the route's params and answer a plain-text 500; it is refused here instead: under /api/ with
//   the API's JSON error body (422 invalid_request, a status every operation lists), elsewhere with a plain
//   400 page.
// - A server action sent from another origin (the Origin header's host is not the host the request was sent to)
//   is refused with a plain 403 before it reaches Next.js, whose own CSRF check refuses it too but answers 500.
//   The comparison is Next.js's own (foreignActionOrigin), so nothing it would run is refused here.
// - The app's pages get their security headers (lib/app/security-headers.ts), read at run time so that
//   DECK_CONTENT_ORIGIN and the sign-in providers of the running server are the ones allowed, and their
//   path in a request header, so a page that needs a session sends the person to sign in and back.

export function proxy(request: Request): Response {
  const { pathname, search } = new URL(request.url);
  if (decodes(pathname)) {
    if (foreignActionOrigin(request)) {
      return new Response("Forbidden: this form was sent from another site.\n", {
        status: 403,
        headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
      });
    }
    const appPage = isAppPage(pathname);
    // The page's own path, for a sign-in redirect that comes back to it (server/context.ts).
    const headers = new Headers(request.headers);
    if (appPage) headers.set(REQUEST_PATH_HEADER, `${pathname}${search}`);
    else headers.delete(REQUEST_PATH_HEADER);
    const response = NextResponse.next({ request: { headers } });
    if (appPage) {
      for (const [name, value] of Object.entries(appSecurityHeaders())) response.headers.set(name, value);
    }
    return response;
  }
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const requestId = crypto.randomUUID();
    return Response.json(
      {
        error: {
          code: "invalid_request",
          message: "The request path is not valid percent-encoding (a % must start a UTF-8 sequence like %C3%A9).",
        },
      },
      { status: errorStatus.invalid_request, headers: { "X-Request-Id": requestId } },
    );
  }
  return new Response("Bad request: this address is not valid percent-encoding.\n", {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}

// Whether Next.js's action handler (next/dist/server/app-render/action-handler.js) would refuse this request
// as a cross-site server action: a POST with a Next-Action header (a fetch action) or a multipart form (a
// form's action), whose Origin is "null", unreadable, or names another host than the first X-Forwarded-Host,
// else the Host. A request without Origin goes on, as Next.js lets it (no browser sends a cross-site POST
// without one). next.config.ts sets no `serverActions.allowedOrigins`; one added there must be allowed here too.
function foreignActionOrigin(request: Request): boolean {
  // The API (which takes multipart uploads from any origin, with a key) has no server actions.
  if (request.method !== "POST" || new URL(request.url).pathname.startsWith("/api/")) return false;
  const headers = request.headers;
  if (!headers.has("next-action") && !headers.get("content-type")?.startsWith("multipart/form-data")) return false;
  const origin = headers.get("origin");
  if (origin === null) return false;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Paths with a "%" (only they can be badly encoded) and the app's pages; the API, the viewer and static
  // files skip the proxy.
  matcher: ["/(.*%.*)", "/((?!api/|d/|preview/|player/|files/|_next/)[^.]*)"],
};
