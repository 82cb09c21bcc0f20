import { and, between, desc, eq, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { AppError } from "@/lib/core/errors";
import { analyticsDaily } from "@/lib/db/schema/analytics-daily";
import { analyticsDailyReferrers } from "@/lib/db/schema/analytics-daily-referrers";
import { analyticsDailySlides } from "@/lib/db/schema/analytics-daily-slides";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { getDeckWithReadableHistory } from "@/lib/decks/access";
import type { DeckAnalytics } from "./schemas";
import { utcDay } from "./visitor";

// GET /api/v1/decks/{id}/analytics: the deck's analytics over a range of UTC days, for its organization
// (the rules of its version history: another organization's deck is a 404, public or not). Three reads of
// the per-day rollups by primary-key range, so the cost is days × slides, whatever the number of views.

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_RANGE_DAYS = 366;

const seconds = (ms: number) => Math.round(ms / 10) / 100;

export async function getDeckAnalytics(
  ctx: Ctx,
  deckId: string,
  query: { from?: string; to?: string },
  now = new Date(),
): Promise<DeckAnalytics> {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  const to = query.to ?? utcDay(now);
  const from = query.from ?? utcDay(new Date(Date.parse(to) - 29 * DAY_MS));
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw new AppError("invalid_request", "query.from must not be after query.to");
  if (days > MAX_RANGE_DAYS)
    throw new AppError("invalid_request", `query.from..to spans at most ${MAX_RANGE_DAYS} days`);

  const [version] = await ctx.db
    .select({ slides: sql<number>`coalesce(jsonb_array_length(${deckVersions.outline}), 0)::int` })
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, deck.versionCount)));
  const slideCount = Number(version?.slides ?? 0);

  const [daily, slides, referrers] = await Promise.all([
    ctx.db
      .select()
      .from(analyticsDaily)
      .where(and(eq(analyticsDaily.deckId, deck.id), between(analyticsDaily.day, from, to))),
    ctx.db
      .select({
        slide: analyticsDailySlides.slide,
        reached: sql<number>`sum(${analyticsDailySlides.reached})::bigint`,
        exits: sql<number>`sum(${analyticsDailySlides.exits})::bigint`,
        ms: sql<number>`sum(${analyticsDailySlides.ms})::bigint`,
      })
      .from(analyticsDailySlides)
      .where(and(eq(analyticsDailySlides.deckId, deck.id), between(analyticsDailySlides.day, from, to)))
      .groupBy(analyticsDailySlides.slide),
    ctx.db
      .select({ host: analyticsDailyReferrers.host, views: sql<number>`sum(${analyticsDailyReferrers.views})::bigint` })
      .from(analyticsDailyReferrers)
      .where(and(eq(analyticsDailyReferrers.deckId, deck.id), between(analyticsDailyReferrers.day, from, to)))
      .groupBy(analyticsDailyReferrers.host)
      .orderBy(desc(sql`2`), analyticsDailyReferrers.host)
      .limit(50),
  ]);

  const byDay = new Map(daily.map((row) => [row.day, row]));
  const perDay: DeckAnalytics["perDay"] = [];
  for (let index = 0; index < days; index++) {
    const day = utcDay(new Date(Date.parse(from) + index * DAY_MS));
    const row = byDay.get(day);
    perDay.push({
      day,
      views: row?.views ?? 0,
      uniqueViewers: row?.uniqueViewers ?? 0,
      presenterSessions: row?.presenterSessions ?? 0,
    });
  }
  const sum = (pick: (row: (typeof daily)[number]) => number) =>
    daily.reduce((total, row) => total + Number(pick(row)), 0);
  const views = sum((row) => row.views);

  const bySlide = new Map(slides.map((row) => [row.slide, row]));
  const perSlide: DeckAnalytics["perSlide"] = [];
  for (let slide = 1; slide <= slideCount; slide++) {
    const row = bySlide.get(slide);
    const reached = Number(row?.reached ?? 0);
    const ms = Number(row?.ms ?? 0);
    perSlide.push({
      slide,
      reached,
      exits: Number(row?.exits ?? 0),
      seconds: seconds(ms),
      averageSeconds: reached > 0 ? seconds(ms / reached) : 0,
    });
  }
  const completed = slideCount > 0 ? (perSlide[slideCount - 1]?.reached ?? 0) : 0;

  return {
    deckId: deck.id,
    from,
    to,
    slides: slideCount,
    totals: {
      views,
      uniqueViewers: sum((row) => row.uniqueViewers),
      sharePageViews: sum((row) => row.shareViews),
      embedViews: sum((row) => row.embedViews),
      presenterSessions: sum((row) => row.presenterSessions),
      averageSeconds: views > 0 ? seconds(sum((row) => row.ms) / views) : 0,
      completionRate: views > 0 ? Math.min(1, Math.round((completed / views) * 1000) / 1000) : 0,
    },
    perSlide,
    perDay,
    referrers: referrers.map((row) => ({ host: row.host, views: Number(row.views) })),
  };
}
