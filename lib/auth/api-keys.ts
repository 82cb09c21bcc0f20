import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
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

export function isWellFormedApiKey(key: string): boolean {
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
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

// Resolves an `Authorization` header to the key's caller, or throws 401.
export async function authenticateApiKey(
  db: Queryable,
  authorization: string | null,
): Promise<Caller & { keyPrefix: string }> {
  if (!authorization) {
    throw new AppError("unauthorized", "Missing API key: send the header `Authorization: Bearer <API_KEY>`.");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match || !isWellFormedApiKey(match[1]!)) {
    throw new AppError("unauthorized", "Malformed API key: expected `Authorization: Bearer dk_…`.");
  }
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
    .where(eq(apiKeys.keyHash, hashApiKey(match[1]!)))
    .limit(1);
  if (!row) throw new AppError("unauthorized", "Unknown API key.");
  if (row.revokedAt) throw new AppError("unauthorized", "This API key has been revoked.");
  if (!row.memberOf)
    throw new AppError("unauthorized", "This API key's creator is no longer a member of its organization.");

  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return { userId: row.userId, organizationId: row.organizationId, apiKeyId: row.id, keyPrefix: row.prefix };
}
