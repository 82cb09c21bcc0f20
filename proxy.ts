import { NextResponse } from "next/server";
import { errorStatus } from "@/lib/core/errors";
import { appSecurityHeaders, isAppPage, REQUEST_PATH_HEADER } from "@/lib/app/security-headers";

// Runs before routing for the app's pages and for paths holding a "%" (see the matcher).
// - A path whose percent-encoding does not decode (`/decks/%E0%A4%A`, `/d/100%`) would make Next.js fail
//   decoding the route's params and answer a plain-text 500; it is refused here instead: under /api/ with
//   the API's JSON error body (422 invalid_request, a status every operation lists), elsewhere with a plain
//   400 page.
// - The app's pages get their security headers (lib/app/security-headers.ts), read at run time so that
//   DECK_CONTENT_ORIGIN and the sign-in providers of the running server are the ones allowed, and their
//   path in a request header, so a page that needs a session sends the person to sign in and back.

export function proxy(request: Request): Response {
  const { pathname, search } = new URL(request.url);
  if (decodes(pathname)) {
    const appPage = isAppPage(pathname);
    // The page's own path, for a sign-in redirect that comes back to it (app/_server/context.ts).
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
