import { createHmac, timingSafeEqual } from "node:crypto";
import { serverSecret } from "@/lib/core/secret";

// The unlock of a password-protected share link. The share page's form checks the password (argon2id, the
// app's password hashing) and sets a cookie holding a signed token; the share and presenter pages, served
// only with it, hand the same token to the frame and the frame to the module and logo (?unlock=…): the
// frame is sandboxed with an opaque origin, so its requests carry no cookie, and the content origin
// (DECK_CONTENT_ORIGIN) may be another host. The token names the slug, the password's hash (a new password
// ends every unlock) and its expiry, signed with the server's secret.

export const UNLOCK_TTL_SECONDS = 12 * 60 * 60;

export const unlockCookieName = (slug: string) => `dh_unlock_${slug}`;

function sign(slug: string, passwordHash: string, expires: number): string {
  return createHmac("sha256", serverSecret())
    .update(`deckhand link unlock\u0000${slug}\u0000${passwordHash}\u0000${expires}`)
    .digest("base64url");
}

export function mintUnlockToken(slug: string, passwordHash: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + UNLOCK_TTL_SECONDS;
  return `${expires}.${sign(slug, passwordHash, expires)}`;
}

export function verifyUnlockToken(
  token: string | null | undefined,
  slug: string,
  passwordHash: string,
  now = Date.now(),
): boolean {
  return verifySigned(token, (expires) => sign(slug, passwordHash, expires), now);
}

/** Whether `<expires>.<signature>` is unexpired and signed as `sign` signs that expiry. */
function verifySigned(token: string | null | undefined, sign: (expires: number) => string, now: number): boolean {
  const match = /^(\d{1,12})\.([\w-]{43})$/.exec(token ?? "");
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now) return false;
  const expected = Buffer.from(sign(expires));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The unlock token a request carries: the ?unlock= parameter, else the link's cookie. */
export function unlockTokenOf(req: Request, slug: string): string | null {
  const fromQuery = new URL(req.url).searchParams.get("unlock");
  if (fromQuery) return fromQuery;
  const name = unlockCookieName(slug);
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return null;
}

/** Whether the request may see the link: it has no password, or the request holds a valid unlock. */
export function hasLinkUnlockToken(req: Request, slug: string, passwordHash: string | null): boolean {
  if (!passwordHash) return true;
  return verifyUnlockToken(unlockTokenOf(req, slug), slug, passwordHash);
}

// The analytics beacon's page token: each viewer page (share, embedded, presenter) is served with an events
// URL holding a token signed for its slug, and POST /d/{slug}/events takes only batches that bring one back,
// so events come from someone who loaded the page, not from a script that never did. Not a secret from the
// viewer: it proves a page load, and the counts still go by the trusted client address. It lasts a week, as
// long as a page is plausibly left open (a revoked link's new slug ends it at once).
const BEACON_TTL_SECONDS = 7 * 24 * 60 * 60;

function signBeacon(slug: string, expires: number): string {
  return createHmac("sha256", serverSecret())
    .update(`deckhand analytics beacon\u0000${slug}\u0000${expires}`)
    .digest("base64url");
}

/** The events URL a viewer page of this slug gives its beacon: /d/{slug}/events?t=<token>. */
export function beaconUrl(slug: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + BEACON_TTL_SECONDS;
  return `/d/${slug}/events?t=${expires}.${signBeacon(slug, expires)}`;
}

/** Whether the request brings back a page token of this slug that has not expired. */
export function hasBeaconToken(req: Request, slug: string, now = Date.now()): boolean {
  return verifySigned(new URL(req.url).searchParams.get("t"), (expires) => signBeacon(slug, expires), now);
}
