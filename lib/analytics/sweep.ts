import { and, like, lt, ne, sql } from "drizzle-orm";
import { setting } from "@/lib/core/config";
import { analyticsEvents } from "@/lib/db/schema/analytics-events";
import { analyticsViews } from "@/lib/db/schema/analytics-views";
import { analyticsVisitors } from "@/lib/db/schema/analytics-visitors";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import type { Db } from "@/lib/db/types";
import { utcDay } from "./visitor";
import { logger } from "@/lib/core/log";

const DAY_MS = 24 * 60 * 60 * 1000;

// Retention: raw events and views older than ANALYTICS_RETENTION_DAYS go (the per-day rollups stay: they
// hold counts only). Viewer hashes go once their day and the next are over: the day's set is deleted and a
// view's hash blanked two days after it was last seen, so whoever holds the server's secret (from which a
// past day's salt can be derived again) finds no hash to test guesses of an address against. The
// analytics rate-limit buckets (named by the hash too) go once their window is long past.
export async function sweepAnalytics(db: Db, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - setting("ANALYTICS_RETENTION_DAYS") * DAY_MS);
  await db.delete(analyticsEvents).where(lt(analyticsEvents.occurredAt, cutoff));
  await db.delete(analyticsViews).where(lt(analyticsViews.lastSeenAt, cutoff));
  await db.delete(analyticsVisitors).where(lt(analyticsVisitors.day, utcDay(new Date(now.getTime() - DAY_MS))));
  await db
    .update(analyticsViews)
    .set({ visitor: "" })
    .where(and(lt(analyticsViews.lastSeenAt, new Date(now.getTime() - 2 * DAY_MS)), ne(analyticsViews.visitor, "")));
  await db
    .delete(rateLimits)
    .where(and(like(rateLimits.bucket, "analytics-%"), lt(rateLimits.windowStart, sql`now() - interval '10 minutes'`)));
}

let lastSweep = 0;

/** At most once an hour per process, after an ingest: no scheduler needed on any platform. */
export async function maybeSweepAnalytics(db: Db, now: Date): Promise<void> {
  if (now.getTime() - lastSweep < 60 * 60 * 1000) return;
  lastSweep = now.getTime();
  try {
    await sweepAnalytics(db, now);
  } catch (error) {
    logger("analytics").error("analytics sweep failed", { error });
  }
}
