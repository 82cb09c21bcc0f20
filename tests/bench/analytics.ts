import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDeckAnalytics } from "@/lib/analytics/get-analytics";
import { ingestEvents } from "@/lib/analytics/ingest";
import type { Ctx } from "@/lib/auth/caller";
import { createKeyForEmail } from "@/lib/auth/accounts";
import { adoptDatabase, type Database, migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";
import { createDeck } from "@/lib/decks/create-deck";
import { setDeckContent } from "@/lib/decks/set-deck-content";
import { updateDeck } from "@/lib/decks/update-deck";
import { type BenchRow, percentile } from "./server";

// Analytics in-process on the database (PGlite in memory, or BENCH_DATABASE_URL): how many viewer events the
// ingest takes per second (batches as the share page sends them, one transaction each: raw events, the
// view's row, the day's rollups), and how long get_deck_analytics takes for a deck with 1,000,000 events
// over 90 days, next to the same answer computed from the raw events (what the rollups save).

const SLIDES = 20;
const BATCHES = Number(process.env.BENCH_ANALYTICS_BATCHES || 2000);
const SYNTHETIC_EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS || 1_000_000);
const DAYS = 90;

const deckSource = `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Talk() {
  return <Deck>${Array.from({ length: SLIDES }, (_, i) => `<Slide label="S${i + 1}"><Heading>S${i + 1}</Heading></Slide>`).join("")}</Deck>;
}`;

async function publishedDeck(database: Database): Promise<{ ctx: Ctx; deckId: string; slug: string }> {
  const user = await createKeyForEmail(database.db, { email: `bench-${randomUUID()}@example.test` });
  const ctx: Ctx = {
    db: database.db,
    caller: { userId: user.userId, organizationId: user.organizationId, apiKeyId: null },
  };
  const deck = await createDeck(ctx, { title: "Bench", description: "", kind: "deck", format: "slides" });
  await setDeckContent(ctx, deck.id, { source: deckSource });
  const published = await updateDeck(ctx, deck.id, { visibility: "public" });
  return { ctx, deckId: deck.id, slug: published.publicUrl!.split("/d/")[1]! };
}

async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

const row = (label: string, samples: number[], unit = "ms"): BenchRow => ({
  label,
  n: samples.length,
  median: percentile(samples, 50),
  p95: percentile(samples, 95),
  unit,
});

export async function benchAnalytics(): Promise<BenchRow[]> {
  process.env.ANALYTICS_VIEWER_EVENTS_PER_MINUTE = "100000000";
  process.env.ANALYTICS_DECK_EVENTS_PER_MINUTE = "100000000";
  process.env.COMPILE_IN_WORKER = "0";
  const url = process.env.BENCH_DATABASE_URL;
  const database = url ? await openDatabase(url) : await openPglite(undefined);
  await migrateDatabase(database);
  adoptDatabase(database);
  const rows: BenchRow[] = [];
  try {
    // 1. Ingest: batches of 5 records (a viewer moving through slides), 200 viewers, sequential and 8 at a time.
    const { slug } = await publishedDeck(database);
    const secret = randomBytes(32);
    const viewers = Array.from({ length: 200 }, (_, i) => ({
      view: randomUUID(),
      headers: new Headers({
        "user-agent": `Mozilla/5.0 Chrome/147 bench-${i}`,
        "x-forwarded-for": `198.51.100.${i % 250}`,
      }),
      slide: 1,
    }));
    const batch = (index: number) => {
      const viewer = viewers[index % viewers.length]!;
      const events = Array.from({ length: 5 }, () => {
        const event = { slide: viewer.slide, ms: 1000 + (index % 7) * 300 };
        viewer.slide = viewer.slide >= SLIDES ? 1 : viewer.slide + 1;
        return event;
      });
      return ingestEvents(database.db, {
        slug,
        secret,
        headers: viewer.headers,
        batch: { view: viewer.view, source: "share", referrer: "news.example.com", events },
      });
    };
    const sequential = await time(() => batch(Math.floor(Math.random() * 1e9)), BATCHES);
    const totalMs = sequential.reduce((a, b) => a + b, 0);
    rows.push(row("ingest one batch of 5 events (sequential)", sequential));
    rows.push({
      label: `events ingested per second, sequential (${BATCHES} batches, one run)`,
      n: 1,
      // One throughput per run: median and p95 are that number.
      median: (BATCHES * 5) / (totalMs / 1000),
      p95: (BATCHES * 5) / (totalMs / 1000),
      unit: "events/s",
    });
    const parallelStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < BATCHES) await batch(next++);
      }),
    );
    const parallelSeconds = (performance.now() - parallelStart) / 1000;
    rows.push({
      label: `events ingested per second, 8 concurrent senders (${BATCHES} batches, one run)`,
      n: 1,
      median: (BATCHES * 5) / parallelSeconds,
      p95: (BATCHES * 5) / parallelSeconds,
      unit: "events/s",
    });

    // 2. A deck with 1,000,000 synthetic events over 90 days: raw rows and the rollups the ingest keeps,
    // written in bulk with SQL (the ingest would take far longer to write them one batch at a time).
    const big = await publishedDeck(database);
    const views = Math.ceil(SYNTHETIC_EVENTS / 10);
    await database.db.execute(sql`
      insert into analytics_views (deck_id, view_id, day, visitor, source, referrer_host, furthest_slide, ms, started_at, last_seen_at)
      select ${big.deckId}, gen_random_uuid(), (current_date - (v % ${DAYS}))::date, md5(v::text), 'share',
        case when v % 3 = 0 then 'news.example.com' when v % 3 = 1 then null else 'mail.example.org' end,
        1 + (v % ${SLIDES}), 10000, now(), now()
      from generate_series(1, ${views}) v`);
    await database.db.execute(sql`
      insert into analytics_events (deck_id, view_id, source, slide, ms, occurred_at)
      select ${big.deckId}, md5((e / 10)::text)::uuid, 'share', 1 + (e % ${SLIDES}), 1000,
        now() - ((e / 10) % ${DAYS}) * interval '1 day'
      from generate_series(0, ${SYNTHETIC_EVENTS - 1}) e`);
    await database.db.execute(sql`
      insert into analytics_daily (deck_id, day, views, unique_viewers, share_views, ms)
      select deck_id, day, count(*), count(distinct visitor), count(*), sum(ms) from analytics_views
      where deck_id = ${big.deckId} group by deck_id, day`);
    await database.db.execute(sql`
      insert into analytics_daily_slides (deck_id, day, slide, reached, exits, ms)
      select ${big.deckId}, d.day, s.slide,
        (select count(*) from analytics_views v where v.deck_id = ${big.deckId} and v.day = d.day and v.furthest_slide >= s.slide),
        (select count(*) from analytics_views v where v.deck_id = ${big.deckId} and v.day = d.day and v.furthest_slide = s.slide),
        (select count(*) from analytics_views v where v.deck_id = ${big.deckId} and v.day = d.day) * 500
      from (select distinct day from analytics_views where deck_id = ${big.deckId}) d, generate_series(1, ${SLIDES}) s(slide)`);
    await database.db.execute(sql`
      insert into analytics_daily_referrers (deck_id, day, host, views)
      select deck_id, day, referrer_host, count(*) from analytics_views
      where deck_id = ${big.deckId} and referrer_host is not null group by deck_id, day, referrer_host`);
    await database.db.execute(sql`analyze`);

    const query = { from: new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10) };
    await getDeckAnalytics(big.ctx, big.deckId, query);
    rows.push(
      row(
        `get_deck_analytics, ${SYNTHETIC_EVENTS.toLocaleString("en")} events over ${DAYS} days (rollups)`,
        await time(() => getDeckAnalytics(big.ctx, big.deckId, query), 20),
      ),
    );
    // The same totals and per-slide time from the raw events: what answering without rollups would cost.
    const raw = () =>
      database.db.execute(sql`select slide, count(*), sum(ms), count(distinct view_id)
        from analytics_events where deck_id = ${big.deckId} and occurred_at >= now() - interval '${sql.raw(String(DAYS))} days'
        group by slide`);
    rows.push(row(`the same per-slide numbers aggregated from the raw events (no rollups)`, await time(raw, 3)));
  } finally {
    await database.close();
  }
  return rows;
}
