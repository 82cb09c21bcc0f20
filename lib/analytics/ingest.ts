import { and, eq, sql } from "drizzle-orm";
import { setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { analyticsDaily } from "@/lib/db/schema/analytics-daily";
import { analyticsEvents } from "@/lib/db/schema/analytics-events";
import { analyticsViews } from "@/lib/db/schema/analytics-views";
import { analyticsVisitors } from "@/lib/db/schema/analytics-visitors";
import type { Db, Tx } from "@/lib/db/types";
import { takeRateLimit } from "@/lib/limits/rate-limit";
import { clientAddress } from "@/lib/net/client-address";
import { findPublishedDeck } from "./published-deck";
import type { EventBatchInput as EventBatch } from "./schemas";
import { maybeSweepAnalytics } from "./sweep";
import { isBot, optedOut, utcDay, visitorHash } from "./visitor";

// POST /d/{slug}/events: a batch of time-on-slide records from a viewer page. Nothing is recorded for a
// viewer who asked not to be tracked (DNT, Sec-GPC) or a bot; a deck that is not public (or whose link
// expired or is locked and not unlocked) is a 404; a slide number outside the published version is a 422
// for the whole batch. A batch is one transaction: the raw events, the view's row (locked, so its furthest
// slide moves forward once) and the day's rollups, so the analytics API is up to date when it commits.

export type IngestInput = {
  slug: string;
  batch: EventBatch;
  headers: Headers;
  secret: Buffer;
  /** Whether the request holds the unlock of a password link with this hash (lib/viewer/link-access.ts). */
  unlocked?: (passwordHash: string) => boolean;
  now?: Date;
};

export type IngestResult = { recorded: boolean; reason?: "opted-out" | "bot" };

export async function ingestEvents(db: Db, input: IngestInput): Promise<IngestResult> {
  const { batch, headers } = input;
  // Before anything is looked up or counted, rate limits included.
  if (optedOut(headers)) return { recorded: false, reason: "opted-out" };
  const userAgent = headers.get("user-agent");
  if (isBot(userAgent)) return { recorded: false, reason: "bot" };

  const now = input.now ?? new Date();
  const deck = await findPublishedDeck(db, input.slug);
  if (
    !deck ||
    (deck.expiresAt && deck.expiresAt <= now) ||
    (deck.passwordHash && !input.unlocked?.(deck.passwordHash))
  ) {
    throw new AppError("not_found", "Deck not found.");
  }
  batch.events.forEach((event, index) => {
    if (event.slide > deck.slides) {
      throw new AppError(
        "invalid_request",
        `body.events[${index}].slide must be between 1 and ${deck.slides}, the published version's slides`,
      );
    }
  });

  const today = utcDay(now);
  const ip = clientAddress(headers);
  const hashOn = (day: string) =>
    visitorHash({ secret: input.secret, day, ip, userAgent: userAgent!, deckId: deck.id });
  const visitor = hashOn(today);
  for (const [subject, limit] of [
    [`analytics-viewer:${visitor}`, setting("ANALYTICS_VIEWER_EVENTS_PER_MINUTE")],
    [`analytics-deck:${deck.id}`, setting("ANALYTICS_DECK_EVENTS_PER_MINUTE")],
  ] as const) {
    const state = await takeRateLimit(db, subject, { name: "events", limit, windowSeconds: 60 });
    if (state.exceeded) {
      throw new AppError("rate_limited", `Too many events: retry after ${state.resetSeconds} s.`, {
        retryAfterSeconds: state.resetSeconds,
      });
    }
  }

  await db.transaction((tx) => recordBatch(tx, { deckId: deck.id, batch, visitor, today, now, hashOn }));
  await maybeSweepAnalytics(db, now);
  return { recorded: true };
}

type Batch = {
  deckId: string;
  batch: EventBatch;
  visitor: string;
  today: string;
  now: Date;
  hashOn: (day: string) => string;
};

async function recordBatch(tx: Tx, { deckId, batch, visitor, today, now, hashOn }: Batch): Promise<void> {
  const batchFurthest = Math.max(...batch.events.map((event) => event.slide));
  const batchMs = batch.events.reduce((sum, event) => sum + event.ms, 0);
  const viewKey = and(eq(analyticsViews.deckId, deckId), eq(analyticsViews.viewId, batch.view));

  const [inserted] = await tx
    .insert(analyticsViews)
    .values({
      deckId,
      viewId: batch.view,
      day: today,
      visitor,
      source: batch.source,
      referrerHost: batch.referrer ?? null,
      furthestSlide: batchFurthest,
      ms: batchMs,
      startedAt: now,
      lastSeenAt: now,
    })
    .onConflictDoNothing()
    .returning({ day: analyticsViews.day });

  let day = today;
  let previousFurthest = 0;
  let source = batch.source;
  if (!inserted) {
    const [view] = await tx
      .select({
        day: analyticsViews.day,
        visitor: analyticsViews.visitor,
        furthest: analyticsViews.furthestSlide,
        source: analyticsViews.source,
      })
      .from(analyticsViews)
      .where(viewKey)
      .for("update");
    if (!view) throw new AppError("conflict", "The view was removed meanwhile; retry.");
    // A view id is the page's secret only in the sense that it is random: a batch naming another viewer's
    // view (its hash on the view's own day differs) is refused, so nobody can extend someone else's view.
    if (view.visitor !== hashOn(view.day)) throw new AppError("invalid_request", "body.view belongs to another viewer");
    day = view.day;
    previousFurthest = view.furthest;
    source = view.source;
    await tx
      .update(analyticsViews)
      .set({
        furthestSlide: sql`greatest(${analyticsViews.furthestSlide}, ${batchFurthest})`,
        ms: sql`${analyticsViews.ms} + ${batchMs}`,
        lastSeenAt: now,
      })
      .where(viewKey);
  }

  await tx.insert(analyticsEvents).values(
    batch.events.map((event) => ({
      deckId,
      viewId: batch.view,
      source,
      slide: event.slide,
      ms: event.ms,
      occurredAt: now,
    })),
  );

  // A presenter window is counted as a session; its slides are the share page's, already counted there.
  const isView = source !== "presenter";
  let newViewer = 0;
  if (inserted && isView) {
    const added = await tx
      .insert(analyticsVisitors)
      .values({ deckId, day, visitor })
      .onConflictDoNothing()
      .returning({ day: analyticsVisitors.day });
    newViewer = added.length;
  }
  const opened = inserted ? 1 : 0;
  await tx
    .insert(analyticsDaily)
    .values({
      deckId,
      day,
      views: isView ? opened : 0,
      uniqueViewers: newViewer,
      shareViews: source === "share" ? opened : 0,
      embedViews: source === "embed" ? opened : 0,
      presenterSessions: source === "presenter" ? opened : 0,
      ms: isView ? batchMs : 0,
    })
    .onConflictDoUpdate({
      target: [analyticsDaily.deckId, analyticsDaily.day],
      set: {
        views: sql`${analyticsDaily.views} + excluded.views`,
        uniqueViewers: sql`${analyticsDaily.uniqueViewers} + excluded.unique_viewers`,
        shareViews: sql`${analyticsDaily.shareViews} + excluded.share_views`,
        embedViews: sql`${analyticsDaily.embedViews} + excluded.embed_views`,
        presenterSessions: sql`${analyticsDaily.presenterSessions} + excluded.presenter_sessions`,
        ms: sql`${analyticsDaily.ms} + excluded.ms`,
      },
    });
  if (!isView) return;

  if (inserted && batch.referrer) {
    await tx.execute(sql`insert into analytics_daily_referrers (deck_id, day, host, views)
      values (${deckId}, ${day}, ${batch.referrer}, 1)
      on conflict (deck_id, day, host) do update set views = analytics_daily_referrers.views + 1`);
  }

  // The slides' deltas: every slide newly reached, the drop-off moving from the old furthest slide to the
  // new one, and the time on each slide.
  const deltas = new Map<number, { reached: number; exits: number; ms: number }>();
  const delta = (slide: number) => {
    let entry = deltas.get(slide);
    if (!entry) deltas.set(slide, (entry = { reached: 0, exits: 0, ms: 0 }));
    return entry;
  };
  const furthest = Math.max(previousFurthest, batchFurthest);
  if (furthest > previousFurthest) {
    for (let slide = previousFurthest + 1; slide <= furthest; slide++) delta(slide).reached += 1;
    if (previousFurthest > 0) delta(previousFurthest).exits -= 1;
    delta(furthest).exits += 1;
  }
  for (const event of batch.events) if (event.ms > 0) delta(event.slide).ms += event.ms;
  if (deltas.size === 0) return;
  const rows = JSON.stringify([...deltas].map(([slide, d]) => ({ slide, ...d })));
  await tx.execute(sql`insert into analytics_daily_slides (deck_id, day, slide, reached, exits, ms)
    select ${deckId}, ${day}::date, s.slide, s.reached, s.exits, s.ms
    from jsonb_to_recordset(${rows}::jsonb) as s(slide int, reached int, exits int, ms bigint)
    on conflict (deck_id, day, slide) do update set
      reached = analytics_daily_slides.reached + excluded.reached,
      exits = analytics_daily_slides.exits + excluded.exits,
      ms = analytics_daily_slides.ms + excluded.ms`);
}
