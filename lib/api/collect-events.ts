import { randomUUID } from "node:crypto";
import { ingestEvents } from "@/lib/analytics/ingest";
import { eventBatchBody } from "@/lib/analytics/schemas";
import { EVENTS_MAX_BYTES } from "@/lib/contract/analytics";
import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { serverSecret } from "@/lib/core/secret";
import { getDb } from "@/lib/db/client";
import { hasBeaconToken, hasLinkUnlockToken } from "@/lib/viewer/link-access";
import { errorResponse } from "./handler";
import { parseInput, readBodyBytes } from "./input";

// POST /d/{slug}/events: the viewer pages' analytics beacon. Public (no key, no session, no cookie but a
// password link's unlock); the body is JSON read as text, because navigator.sendBeacon sends a string as
// text/plain. Taken only from a viewer page: the request must bring back the page token its events URL holds
// (lib/viewer/link-access.ts), and carry the Origin every browser sends with a POST: the app's own, or
// "null" (what a browser may send for a page whose Referrer-Policy is no-referrer, as the viewer pages'
// is). A browser on another site is refused by its Origin, so a page elsewhere cannot make its visitors'
// browsers count views. Answers to a beacon carry no body, and 204 does not say whether anything was recorded.
export async function collectEvents(req: Request, slug: string): Promise<Response> {
  const requestId = randomUUID();
  try {
    const origin = req.headers.get("origin");
    const allowed = new Set([new URL(config.appUrl).origin, new URL(config.viewerBaseUrl).origin, "null"]);
    if (origin === null) {
      throw new AppError(
        "forbidden",
        "Events are accepted from the share page only: the request has no Origin header.",
      );
    }
    if (!allowed.has(origin)) throw new AppError("forbidden", "Events are accepted from the share page only.");
    if (!hasBeaconToken(req, slug)) {
      throw new AppError(
        "forbidden",
        "Events are accepted from the share page only: the request lacks the page token (the t parameter of the events URL the page was served with), or it expired. Reload the page.",
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await readBodyBytes(req, EVENTS_MAX_BYTES)));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("invalid_request", "The request body is not JSON.");
    }
    const batch = parseInput(eventBatchBody, value, "body");
    await ingestEvents(await getDb(), {
      slug,
      batch,
      headers: req.headers,
      secret: serverSecret(),
      unlocked: (passwordHash) => hasLinkUnlockToken(req, slug, passwordHash),
    });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    const response = errorResponse(error, requestId);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
}
