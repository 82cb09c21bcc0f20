import { NextResponse } from "next/server";
import { errorStatus } from "@/lib/api/errors";

// Runs before routing, only for paths holding a "%" (see the matcher). A path whose percent-encoding does not
// decode (`/decks/%E0%A4%A`, `/d/100%`) would make Next.js fail decoding the route's params and answer a
// plain-text 500; it is refused here instead: under /api/ with the API's JSON error body (422
// invalid_request, a status every operation lists), elsewhere with a plain 400 page.

export function proxy(request: Request): Response {
  const { pathname } = new URL(request.url);
  if (decodes(pathname)) return NextResponse.next();
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
  // Only paths with a "%" can be badly encoded; every other request skips the proxy.
  matcher: "/(.*%.*)",
};
