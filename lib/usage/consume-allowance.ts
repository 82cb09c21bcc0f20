import { and, eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import { allowances, usage } from "@/lib/db/schema/usage";
import type { Queryable } from "@/lib/db/types";
import { currentPeriod, defaultMonthlyLimit, type FeatureId, meteredFeatures, nextPeriodStart } from "./features";

export async function getMonthlyLimit(db: Queryable, organizationId: string, featureId: FeatureId): Promise<number> {
  const [override] = await db
    .select({ monthlyLimit: allowances.monthlyLimit })
    .from(allowances)
    .where(and(eq(allowances.organizationId, organizationId), eq(allowances.featureId, featureId)));
  return override?.monthlyLimit ?? defaultMonthlyLimit(featureId);
}

function exhausted(featureId: FeatureId, limit: number): AppError {
  const { label } = meteredFeatures[featureId];
  return new AppError(
    "allowance_exhausted",
    `This organization has used its ${limit} ${label} for ${currentPeriod()}. The allowance resets on ${nextPeriodStart()} (UTC).`,
    { featureId },
  );
}

// Refuses early, before expensive work (a model call, a site fetch), when nothing is left this month.
// The unit itself is taken by consumeAllowance in the transaction that saves the result.
export async function assertAllowanceLeft(db: Queryable, organizationId: string, featureId: FeatureId): Promise<void> {
  const limit = await getMonthlyLimit(db, organizationId, featureId);
  const [row] = await db
    .select({ used: usage.used })
    .from(usage)
    .where(
      and(eq(usage.organizationId, organizationId), eq(usage.featureId, featureId), eq(usage.period, currentPeriod())),
    );
  if ((row?.used ?? 0) >= limit) throw exhausted(featureId, limit);
}

// Takes one unit of a feature's monthly allowance in a single conditional upsert, so concurrent
// callers can never overspend. Call it inside the transaction that does the metered work: if that
// work fails, the unit is given back by the rollback. `limit`, when the caller has read it already
// (getMonthlyLimit, before its transaction), saves reading it here.
export async function consumeAllowance(
  db: Queryable,
  organizationId: string,
  featureId: FeatureId,
  limit?: number,
): Promise<void> {
  limit ??= await getMonthlyLimit(db, organizationId, featureId);
  const period = currentPeriod();
  const rows =
    limit <= 0
      ? []
      : await db
          .insert(usage)
          .values({ organizationId, featureId, period, used: 1 })
          .onConflictDoUpdate({
            target: [usage.organizationId, usage.featureId, usage.period],
            set: { used: sql`${usage.used} + 1` },
            setWhere: sql`${usage.used} < ${limit}`,
          })
          .returning({ used: usage.used });
  if (rows.length === 0) throw exhausted(featureId, limit);
}
