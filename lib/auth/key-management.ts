import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { users } from "@/lib/db/schema/users";
import { usage } from "@/lib/db/schema/usage";
import type { Ctx } from "./caller";
import { forgetApiKeys, insertApiKey } from "./api-keys";
import { roleOf } from "./organizations";
import { getMonthlyLimit } from "@/lib/usage/consume-allowance";
import { currentPeriod, type FeatureId, meteredFeatures } from "@/lib/usage/features";

// Settings → API keys: the organization's keys (never their secrets), issuing a key that acts as its
// creator, and revoking one (its creator or an owner of the organization may).

export const keyNameInput = z
  .string()
  .trim()
  .min(1, "Name the key after where it will be used, such as “CI” or “laptop”.")
  .max(100, "Use at most 100 characters for the key's name.");

export async function listOrganizationKeys(ctx: Ctx) {
  return ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      creatorId: users.id,
      creatorEmail: users.email,
      creatorName: users.name,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.organizationId, ctx.caller.organizationId))
    .orderBy(desc(apiKeys.createdAt));
}

export async function createKey(ctx: Ctx, name: string) {
  return insertApiKey(ctx.db, {
    organizationId: ctx.caller.organizationId,
    userId: ctx.caller.userId,
    name: keyNameInput.parse(name),
  });
}

export async function revokeKey(ctx: Ctx, id: string): Promise<void> {
  const [key] = await ctx.db
    .select({ userId: apiKeys.userId, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, ctx.caller.organizationId)));
  if (!key) throw new AppError("not_found", "That key does not exist in this organization.");
  if (key.userId !== ctx.caller.userId && (await roleOf(ctx)) !== "owner") {
    throw new AppError("forbidden", "Only the key's creator or an owner can revoke it.");
  }
  await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  forgetApiKeys({ keyId: id });
}

/** This month's use of every metered feature against the organization's allowance. */
export async function usageThisMonth(ctx: Ctx) {
  const period = currentPeriod();
  const rows = await ctx.db
    .select({ featureId: usage.featureId, used: usage.used })
    .from(usage)
    .where(and(eq(usage.organizationId, ctx.caller.organizationId), eq(usage.period, period)));
  return Promise.all(
    (Object.keys(meteredFeatures) as FeatureId[]).map(async (featureId) => ({
      featureId,
      label: meteredFeatures[featureId].label,
      used: rows.find((r) => r.featureId === featureId)?.used ?? 0,
      limit: await getMonthlyLimit(ctx.db, ctx.caller.organizationId, featureId),
    })),
  );
}
