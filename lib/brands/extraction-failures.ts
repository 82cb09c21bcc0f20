import { setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { type LimitSpec, peekRateLimit, takeRateLimit } from "@/lib/limits/rate-limit";
import type { Ctx } from "@/lib/auth/caller";

// Failed or refused brand extractions per API key (or per person in the app) and hour. They consume no
// allowance, yet each one may have fetched megabytes and parsed them; past the limit the caller waits.

const failures = (): LimitSpec => ({
  name: "brand_failures",
  limit: setting("BRAND_EXTRACTION_FAILURES_PER_HOUR"),
  windowSeconds: 3600,
});

const subjectOf = (ctx: Ctx) => (ctx.caller.apiKeyId ? `key:${ctx.caller.apiKeyId}` : `user:${ctx.caller.userId}`);

export async function assertFailuresLeft(ctx: Ctx): Promise<void> {
  const state = await peekRateLimit(ctx.db, subjectOf(ctx), failures());
  if (!state.exceeded) return;
  const minutes = Math.ceil(state.resetSeconds / 60);
  throw new AppError(
    "rate_limited",
    `${state.limit} brand extractions failed for this API key within the hour; try again in ${minutes} min.`,
    { retryAfterSeconds: state.resetSeconds },
  );
}

export async function countFailure(ctx: Ctx): Promise<void> {
  await takeRateLimit(ctx.db, subjectOf(ctx), failures());
}
