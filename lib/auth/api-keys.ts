import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { memberships } from "@/lib/db/schema/memberships";
import type { Queryable } from "@/lib/db/types";
import type { Caller } from "./caller";

const KEY_PREFIX = "dk_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// 43 base62 characters carry ~256 bits; the format is strict so malformed keys never reach the database.
const KEY_PATTERN = /^dk_[0-9A-Za-z]{43}$/;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;
// last_used_at is written at most this often per key, so reads stay reads.
const LAST_USED_RESOLUTION_MS = 60_000;
/** Keys an instance remembers at most (the oldest read is forgotten first). */
const KEY_CACHE_ENTRIES = 10_000;

// Keys this instance has read, by hash, for API_KEY_CACHE_SECONDS: a request with a key read recently
// does not look it up again. Revoking a key or removing its creator forgets it here at once; another
// instance stops taking it once its copy is that old. Refusals are never remembered.
type KnownKey = { caller: ApiKeyCaller; lastUsedAt: number; until: number };
type ApiKeyCaller = Caller & { keyPrefix: string };
const keyHolder = globalThis as typeof globalThis & {
  __deckhandKeys?: { known: Map<string, KnownKey>; forgotten: number };
};
const keyCache = (keyHolder.__deckhandKeys ??= { known: new Map(), forgotten: 0 });
const knownKeys = keyCache.known;

/** Forgets what this instance remembers of the keys that match (a revoked key, a removed member's keys). */
export function forgetApiKeys(match: { keyHash?: string; keyId?: string; userId?: string; organizationId?: string }) {
  // A read that began before this is not remembered when it ends (it may have seen the key still live).
  keyCache.forgotten += 1;
  for (const [hash, known] of knownKeys) {
    const { caller } = known;
    if (
      (match.keyHash === undefined || match.keyHash === hash) &&
      (match.keyId === undefined || match.keyId === caller.apiKeyId) &&
      (match.userId === undefined || match.userId === caller.userId) &&
      (match.organizationId === undefined || match.organizationId === caller.organizationId)
    ) {
      knownKeys.delete(hash);
    }
  }
}

export function generateApiKey(): string {
  let body = "";
  while (body.length < 43) {
    for (const byte of randomBytes(64)) {
      // Rejection sampling keeps every character equally likely.
      if (byte < 248 && body.length < 43) body += BASE62[byte % 62];
    }
  }
  return KEY_PREFIX + body;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export async function insertApiKey(
  db: Queryable,
  input: { organizationId: string; userId: string; name: string },
): Promise<{ id: string; key: string; prefix: string }> {
  const key = generateApiKey();
  const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
  const [row] = await db
    .insert(apiKeys)
    .values({ ...input, prefix, keyHash: hashApiKey(key) })
    .returning({ id: apiKeys.id });
  return { id: row!.id, key, prefix };
}

// Returns whether a live key was revoked.
export async function revokeApiKey(db: Queryable, key: string): Promise<boolean> {
  if (!isWellFormedApiKey(key)) return false;
  forgetApiKeys({ keyHash: hashApiKey(key) });
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

// Resolves an `Authorization` header to the key's caller, or throws 401.
export async function authenticateApiKey(db: Queryable, authorization: string | null): Promise<ApiKeyCaller> {
  if (!authorization) {
    throw new AppError("unauthorized", "Missing API key: send the header `Authorization: Bearer <API_KEY>`.");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match || !isWellFormedApiKey(match[1]!)) {
    throw new AppError("unauthorized", "Malformed API key: expected `Authorization: Bearer dk_…`.");
  }
  const keyHash = hashApiKey(match[1]!);
  const now = Date.now();
  let known = knownKeys.get(keyHash);
  if (!known || known.until <= now) {
    const forgotten = keyCache.forgotten;
    known = await readKey(db, keyHash, now);
    knownKeys.delete(keyHash);
    if (forgotten === keyCache.forgotten) knownKeys.set(keyHash, known);
    if (knownKeys.size > KEY_CACHE_ENTRIES) knownKeys.delete(knownKeys.keys().next().value!);
  }
  if (now - known.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    known.lastUsedAt = now;
    await db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, known.caller.apiKeyId));
  }
  return known.caller;
}

async function readKey(db: Queryable, keyHash: string, now: number): Promise<KnownKey> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      userId: apiKeys.userId,
      prefix: apiKeys.prefix,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      memberOf: memberships.organizationId,
    })
    .from(apiKeys)
    // A key acts as its creator, so it stops working when the creator leaves the organization.
    .leftJoin(
      memberships,
      and(eq(memberships.organizationId, apiKeys.organizationId), eq(memberships.userId, apiKeys.userId)),
    )
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  if (!row) throw new AppError("unauthorized", "Unknown API key.");
  if (row.revokedAt) throw new AppError("unauthorized", "This API key has been revoked.");
  if (!row.memberOf)
    throw new AppError("unauthorized", "This API key's creator is no longer a member of its organization.");
  return {
    caller: { userId: row.userId, organizationId: row.organizationId, apiKeyId: row.id, keyPrefix: row.prefix },
    lastUsedAt: row.lastUsedAt?.getTime() ?? 0,
    until: now + setting("API_KEY_CACHE_SECONDS") * 1000,
  };
}
