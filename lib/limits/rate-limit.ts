import { eq, sql } from "drizzle-orm";
import { setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import type { Queryable } from "@/lib/db/types";

// Per-credential rate limits in fixed windows, counted in the database with one upsert per request.
// "slow" is the class of the long-running endpoints (generate, edit, the deck check, brand extraction).

export type LimitClass = "default" | "slow";
/** A limit of its own (a named bucket, its size and window), for counters other than requests. */
export type LimitSpec = { name: string; limit: number; windowSeconds: number };

export function rateLimitFor(limitClass: LimitClass): { limit: number; windowSeconds: number } {
  return {
    limit: limitClass === "slow" ? setting("RATE_LIMIT_SLOW_PER_MINUTE") : setting("RATE_LIMIT_PER_MINUTE"),
    windowSeconds: setting("RATE_LIMIT_WINDOW_SECONDS"),
  };
}

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number; exceeded: boolean };

function specOf(limit: LimitClass | LimitSpec): LimitSpec {
  return typeof limit === "string" ? { name: limit, ...rateLimitFor(limit) } : limit;
}

const currentWindow = (windowSeconds: number) =>
  sql`to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds})`;

export async function takeRateLimit(
  db: Queryable,
  subject: string,
  limitClass: LimitClass | LimitSpec,
): Promise<RateLimitState> {
  const { name, limit, windowSeconds } = specOf(limitClass);
  const window = currentWindow(windowSeconds);
  const [row] = await db
    .insert(rateLimits)
    .values({ bucket: `${subject}:${name}`, windowStart: window, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.bucket,
      set: {
        count: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.count} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({
      count: rateLimits.count,
      resetSeconds: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${windowSeconds} * interval '1 second' - now())))::int`,
    });
  const count = row?.count ?? 1;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Number(row?.resetSeconds ?? windowSeconds)),
    exceeded: count > limit,
  };
}

/** The state of a limit without counting anything. */
export async function peekRateLimit(db: Queryable, subject: string, spec: LimitSpec): Promise<RateLimitState> {
  const { name, limit, windowSeconds } = spec;
  const window = currentWindow(windowSeconds);
  const [row] = await db
    .select({
      count: sql<number>`case when ${rateLimits.windowStart} = ${window} then ${rateLimits.count} else 0 end`,
      resetSeconds: sql<number>`ceil(extract(epoch from (${window} + ${windowSeconds} * interval '1 second' - now())))::int`,
    })
    .from(rateLimits)
    .where(eq(rateLimits.bucket, `${subject}:${name}`));
  const count = Number(row?.count ?? 0);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Number(row?.resetSeconds ?? windowSeconds)),
    exceeded: count >= limit,
  };
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
}

export function rateLimitError(state: RateLimitState): AppError {
  return new AppError(
    "rate_limited",
    `Too many requests: the limit is ${state.limit} per window for this API key. Retry after ${state.resetSeconds} s.`,
    // A field too, so callers that are not HTTP (MCP tool errors) can say when to retry.
    { retryAfterSeconds: Math.max(1, state.resetSeconds) },
  );
}
