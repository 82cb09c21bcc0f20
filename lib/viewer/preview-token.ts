import { createHmac, timingSafeEqual } from "node:crypto";
import { serverSecret } from "@/lib/core/secret";

// A short-lived capability to render one version of one deck through the sandboxed player, whatever its
// visibility: the editor's preview and the export renderer use it. Minted only after an access check.
// Format: base64url(JSON payload) "." base64url(HMAC-SHA256).

// `draftOf` names the author whose unsaved draft (deck_drafts) the token shows instead of a version.
export type PreviewGrant = { deckId: string; version: number; draftOf?: string; expiresAt: number };

const DEFAULT_TTL_MS = 15 * 60 * 1000;

function sign(payload: string): string {
  return createHmac("sha256", serverSecret()).update(`preview.${payload}`).digest("base64url");
}

export function mintPreviewToken(
  grant: { deckId: string; version: number; draftOf?: string },
  ttlMs = DEFAULT_TTL_MS,
): string {
  const body = {
    d: grant.deckId,
    v: grant.version,
    e: Date.now() + ttlMs,
    ...(grant.draftOf ? { u: grant.draftOf } : {}),
  };
  const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

export function verifyPreviewToken(token: string): PreviewGrant | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined || token.length > 512) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { d, v, e, u } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      d: unknown;
      v: unknown;
      e: unknown;
      u?: unknown;
    };
    if (typeof d !== "string" || typeof v !== "number" || typeof e !== "number" || e < Date.now()) return null;
    if (u !== undefined && typeof u !== "string") return null;
    return { deckId: d, version: v, expiresAt: e, ...(u ? { draftOf: u } : {}) };
  } catch {
    return null;
  }
}
