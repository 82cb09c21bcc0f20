import { createHash } from "node:crypto";
import { verifyPassword } from "@/lib/auth/passwords";
import { config, setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { type LimitSpec, peekRateLimit, takeRateLimit } from "@/lib/limits/rate-limit";
import { addressBucket, clientAddress } from "@/lib/net/client-address";
import { mintUnlockToken, UNLOCK_TTL_SECONDS, unlockCookieName } from "./link-access";
import { renderNotFoundPage, renderPasswordPage } from "./pages";
import { findPublicDeck } from "./viewable-deck";

// POST /d/{slug}/unlock: the password form of a protected share link. A right password sets the link's
// unlock cookie (HttpOnly, scoped to /d/{slug}, 12 hours) and goes back to the share page; a wrong one
// shows the form again (401). Guessing is limited twice over, in windows of 15 minutes, each answered 429
// with Retry-After and the form saying why:
// - per link and client address (lib/net/client-address.ts; an IPv6 address by its /64, hashed, never
//   stored as is): UNLOCK_ATTEMPTS_PER_ADDRESS attempts, right or wrong. While the link's limit below is
//   the larger, one address cannot use it up alone.
// - per link, from every address: UNLOCK_FAILURES_PER_LINK wrong passwords. Past it the link takes no
//   password at all, the right one included, until the window ends: otherwise whoever holds many addresses
//   could go on guessing. Locking a link thus takes several addresses' wrong tries (100 / 10 by default),
//   and guessing its password is held to that many a window however many addresses guess. A right
//   password counts as its address's attempt, never as the link's failure.
// Checking a password takes a place in lib/auth/passwords.ts's line (a full line is a 429 too).

const WINDOW_SECONDS = 15 * 60;
const MAX_FORM_BYTES = 4096;

const attemptsPerAddress = (): LimitSpec => ({
  name: "unlock",
  limit: setting("UNLOCK_ATTEMPTS_PER_ADDRESS"),
  windowSeconds: WINDOW_SECONDS,
});
const failuresPerLink = (): LimitSpec => ({
  name: "unlock_failures",
  limit: setting("UNLOCK_FAILURES_PER_LINK"),
  windowSeconds: WINDOW_SECONDS,
});

/** Thrown when the link took its wrong passwords for the window; the password was not checked. */
class LinkLocked extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("link locked");
  }
}

export async function unlockLink(req: Request, slug: string): Promise<Response> {
  const db = await getDb();
  const viewable = await findPublicDeck(db, slug);
  if (!viewable) return renderNotFoundPage();
  if (!viewable.passwordHash) return redirect(slug);

  const address = createHash("sha256")
    .update(addressBucket(clientAddress(req.headers)))
    .digest("base64url");
  const attempts = await takeRateLimit(db, `link-unlock:${slug}:${address.slice(0, 16)}`, attemptsPerAddress());
  if (attempts.exceeded) {
    return tooMany(
      slug,
      attempts.resetSeconds,
      `Too many tries from your network. Try again in ${minutes(attempts.resetSeconds)}.`,
    );
  }

  const declared = Number(req.headers.get("content-length") ?? 0);
  const text = declared > MAX_FORM_BYTES ? "" : (await req.text()).slice(0, MAX_FORM_BYTES);
  const password = new URLSearchParams(text).get("password") ?? "";
  if (!password) return renderPasswordPage(slug, "That password is not right.", 401);

  let right: boolean;
  try {
    // The link's count is read once a place in the line is free, so the checks waiting in it at once cannot
    // all pass a count read before any of them failed.
    right = await verifyPassword(viewable.passwordHash, password, async () => {
      const failures = await peekRateLimit(db, `link-unlock:${slug}`, failuresPerLink());
      if (failures.exceeded) throw new LinkLocked(failures.resetSeconds);
    });
  } catch (error) {
    if (error instanceof LinkLocked) {
      return tooMany(
        slug,
        error.retryAfterSeconds,
        `Too many wrong passwords were tried for this link. It takes none for ${minutes(error.retryAfterSeconds)}.`,
      );
    }
    if (error instanceof AppError && error.code === "rate_limited") {
      return tooMany(
        slug,
        error.retryAfterSeconds ?? 1,
        "Too many passwords are being checked. Try again in a moment.",
      );
    }
    throw error;
  }
  if (!right) {
    await takeRateLimit(db, `link-unlock:${slug}`, failuresPerLink());
    return renderPasswordPage(slug, "That password is not right.", 401);
  }

  const secure = new URL(config.viewerBaseUrl).protocol === "https:" ? "; Secure" : "";
  const response = redirect(slug);
  response.headers.append(
    "Set-Cookie",
    `${unlockCookieName(slug)}=${mintUnlockToken(slug, viewable.passwordHash)}; Path=/d/${slug}; Max-Age=${UNLOCK_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
  return response;
}

function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60));
  return count === 1 ? "a minute" : `${count} minutes`;
}

function tooMany(slug: string, retryAfterSeconds: number, notice: string): Response {
  const response = renderPasswordPage(slug, notice, 429);
  response.headers.set("Retry-After", String(Math.max(1, retryAfterSeconds)));
  return response;
}

function redirect(slug: string): Response {
  return new Response(null, { status: 303, headers: { Location: `/d/${slug}`, "Cache-Control": "no-store" } });
}
