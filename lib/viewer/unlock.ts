import { createHash } from "node:crypto";
import { verifyPassword } from "@/lib/auth/passwords";
import { config } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { takeRateLimit } from "@/lib/limits/rate-limit";
import { mintUnlockToken, UNLOCK_TTL_SECONDS, unlockCookieName } from "./link-access";
import { renderNotFoundPage, renderPasswordPage } from "./pages";
import { findPublicDeck } from "./viewable-deck";

// POST /d/{slug}/unlock: the password form of a protected share link. A right password sets the link's
// unlock cookie (HttpOnly, scoped to /d/{slug}, 12 hours) and goes back to the share page; a wrong one
// shows the form again. Attempts are limited per link and client address (hashed, never stored as is).

const ATTEMPTS_PER_MINUTE = 10;
const MAX_FORM_BYTES = 4096;

export async function unlockLink(req: Request, slug: string): Promise<Response> {
  const db = await getDb();
  const viewable = await findPublicDeck(db, slug);
  if (!viewable) return renderNotFoundPage();
  if (!viewable.passwordHash) return redirect(slug);

  const address = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? "";
  const subject = `link-unlock:${slug}:${createHash("sha256").update(address).digest("base64url").slice(0, 16)}`;
  const attempts = await takeRateLimit(db, subject, { name: "unlock", limit: ATTEMPTS_PER_MINUTE, windowSeconds: 60 });
  if (attempts.exceeded) {
    const response = renderPasswordPage(slug, true, 429);
    response.headers.set("Retry-After", String(attempts.resetSeconds));
    return response;
  }

  const declared = Number(req.headers.get("content-length") ?? 0);
  const text = declared > MAX_FORM_BYTES ? "" : (await req.text()).slice(0, MAX_FORM_BYTES);
  const password = new URLSearchParams(text).get("password") ?? "";
  if (!password || !(await verifyPassword(viewable.passwordHash, password))) return renderPasswordPage(slug, true, 401);

  const secure = new URL(config.viewerBaseUrl).protocol === "https:" ? "; Secure" : "";
  const response = redirect(slug);
  response.headers.append(
    "Set-Cookie",
    `${unlockCookieName(slug)}=${mintUnlockToken(slug, viewable.passwordHash)}; Path=/d/${slug}; Max-Age=${UNLOCK_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
  return response;
}

function redirect(slug: string): Response {
  return new Response(null, { status: 303, headers: { Location: `/d/${slug}`, "Cache-Control": "no-store" } });
}
