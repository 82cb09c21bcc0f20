import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepAnalytics } from "@/lib/analytics/sweep";
import type { Database } from "@/lib/db/client";
import { analyticsEvents } from "@/lib/db/schema/analytics-events";
import { analyticsViews } from "@/lib/db/schema/analytics-views";
import { analyticsVisitors } from "@/lib/db/schema/analytics-visitors";
import { decks } from "@/lib/db/schema/decks";
import { call, createUser, type TestUser } from "../helpers/api";
import { beaconUrl } from "@/lib/viewer/link-access";
import { dispatch } from "../helpers/app-router";
import { eventsUrlIn } from "../helpers/viewer-page";
import { setUpTestDatabase } from "../helpers/database";

// The collection endpoint (POST /d/{slug}/events) and get_deck_analytics on the real route handlers and a
// real database: batches roll up per day as they arrive; opted-out viewers, bots, forged slides, private
// decks, other sites and oversized bodies record nothing; another organization cannot read the numbers.

const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36";
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";

let database: Database;
let author: TestUser;
let deckId: string;
let slug: string;

const source = (labels: string[]) => `import { Deck, Slide, Heading } from "@deckhand/player";
export default function Talk() {
  return <Deck>${labels.map((label) => `<Slide label="${label}"><Heading>${label}</Heading></Slide>`).join("")}</Deck>;
}`;

async function publish(user: TestUser, labels: string[]) {
  const created = await call("POST", "/decks", { key: user.key, body: { title: "Analytics" } });
  const id = created.body.id as string;
  expect((await call("PUT", `/decks/${id}/content`, { key: user.key, body: { source: source(labels) } })).status).toBe(
    200,
  );
  const patched = await call("PATCH", `/decks/${id}`, { key: user.key, body: { visibility: "public" } });
  expect(patched.status).toBe(200);
  return { id, slug: String(patched.body.publicUrl).split("/d/")[1]! };
}

// A batch as a viewer page's beacon sends it: to the events URL the page was served with (its page token),
// with the page's Origin. `url` replaces that URL (a path of the app); `origin: null` sends no Origin.
async function send(
  batch: Record<string, unknown>,
  options: {
    ua?: string;
    headers?: Record<string, string>;
    to?: string;
    raw?: string;
    url?: string;
    origin?: string | null;
  } = {},
) {
  const origin = options.origin === undefined ? "http://localhost" : options.origin;
  const headers = new Headers({
    "user-agent": options.ua ?? chrome,
    "x-forwarded-for": "203.0.113.7",
    ...(origin === null ? {} : { origin }),
    ...options.headers,
  });
  const response = await dispatch(
    new Request(`http://localhost${options.url ?? beaconUrl(options.to ?? slug)}`, {
      method: "POST",
      headers,
      body: options.raw ?? JSON.stringify(batch),
    }),
  );
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

const analytics = async (query = "") => call("GET", `/decks/${deckId}/analytics${query}`, { key: author.key });

beforeAll(async () => {
  database = await setUpTestDatabase();
  process.env.APP_URL = "http://localhost";
  author = await createUser();
  ({ id: deckId, slug } = await publish(author, ["One", "Two", "Three", "Four"]));
}, 60_000);

describe("collecting events", () => {
  it("rolls batches up per day: views, unique viewers, time per slide, drop-off, referrers", async () => {
    const first = randomUUID();
    expect(
      (await send({ view: first, source: "share", referrer: "News.Example.com", events: [{ slide: 1, ms: 0 }] }))
        .status,
    ).toBe(204);
    // Live: the view counts as soon as the first batch is in.
    expect((await analytics()).body.totals).toMatchObject({ views: 1, uniqueViewers: 1, sharePageViews: 1 });
    await send({
      view: first,
      source: "share",
      events: [
        { slide: 1, ms: 4000 },
        { slide: 2, ms: 0 },
        { slide: 2, ms: 2500 },
        { slide: 3, ms: 0 },
      ],
    });
    await send({ view: first, source: "share", events: [{ slide: 3, ms: 1000 }] });
    // The same person again (same address and browser): a second view, not a second viewer.
    await send({ view: randomUUID(), source: "share", events: [{ slide: 1, ms: 1000 }] });
    // Someone else, in an embed.
    await send(
      {
        view: randomUUID(),
        source: "embed",
        events: [
          { slide: 1, ms: 3000 },
          { slide: 2, ms: 500 },
        ],
      },
      { ua: firefox },
    );
    // A presenter window: a session, not a view.
    await send({ view: randomUUID(), source: "presenter", events: [{ slide: 1, ms: 0 }] });

    const { status, body } = await analytics();
    expect(status).toBe(200);
    expect(body.slides).toBe(4);
    expect(body.totals).toMatchObject({
      views: 3,
      uniqueViewers: 2,
      sharePageViews: 2,
      embedViews: 1,
      presenterSessions: 1,
    });
    expect(body.totals.averageSeconds).toBeCloseTo((4000 + 2500 + 1000 + 1000 + 3500) / 3 / 1000, 1);
    expect(body.perSlide).toEqual([
      { slide: 1, reached: 3, exits: 1, seconds: 8, averageSeconds: 2.67 },
      { slide: 2, reached: 2, exits: 1, seconds: 3, averageSeconds: 1.5 },
      { slide: 3, reached: 1, exits: 1, seconds: 1, averageSeconds: 1 },
      { slide: 4, reached: 0, exits: 0, seconds: 0, averageSeconds: 0 },
    ]);
    expect(body.referrers).toEqual([{ host: "news.example.com", views: 1 }]);
    expect(body.perDay).toHaveLength(30);
    expect(body.perDay.at(-1)).toMatchObject({ views: 3, uniqueViewers: 2, presenterSessions: 1 });
  });

  it("records nothing for Do-Not-Track, Global Privacy Control and bots", async () => {
    const before = (await analytics()).body.totals.views;
    const batch = () => ({ view: randomUUID(), source: "share", events: [{ slide: 1, ms: 10 }] });
    expect((await send(batch(), { headers: { dnt: "1" } })).status).toBe(204);
    expect((await send(batch(), { headers: { "sec-gpc": "1" } })).status).toBe(204);
    for (const ua of [
      "Googlebot/2.1 (+http://www.google.com/bot.html)",
      "curl/8.5.0",
      `${chrome} HeadlessChrome`,
      "",
    ]) {
      expect((await send(batch(), { ua })).status).toBe(204);
    }
    expect((await analytics()).body.totals.views).toBe(before);
  });

  it("refuses forged slides, decks that are not public, other sites and malformed or oversized bodies", async () => {
    const view = randomUUID();
    const forged = await send({
      view,
      source: "share",
      events: [
        { slide: 1, ms: 0 },
        { slide: 5, ms: 100 },
      ],
    });
    expect(forged.status).toBe(422);
    expect(forged.body.error.message).toContain("events[1].slide");
    expect((await send({ view, source: "share", events: [{ slide: 0, ms: 0 }] })).status).toBe(422);
    expect((await send({ view, source: "share", events: [{ slide: 1, ms: -1 }] })).status).toBe(422);
    expect((await send({ view, source: "share", events: [] })).status).toBe(422);
    expect((await send({ view, source: "share", events: [{ slide: 1, ms: 0 }], extra: 1 })).status).toBe(422);
    expect((await send({}, { raw: "not json" })).status).toBe(422);
    expect(
      (
        await send(
          {},
          {
            raw:
              JSON.stringify({ view, source: "share", events: Array(100).fill({ slide: 1, ms: 12345678 }) }) +
              " ".repeat(9000),
          },
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await send(
          { view, source: "share", events: [{ slide: 1, ms: 0 }] },
          { headers: { origin: "https://evil.example" } },
        )
      ).status,
    ).toBe(403);
    expect((await send({ view, source: "share", events: [{ slide: 1, ms: 0 }] }, { to: "zzzzzzzzzzzz" })).status).toBe(
      404,
    );

    const other = await publish(author, ["A"]);
    expect((await call("PATCH", `/decks/${other.id}`, { key: author.key, body: { visibility: "org" } })).status).toBe(
      200,
    );
    expect((await send({ view, source: "share", events: [{ slide: 1, ms: 0 }] }, { to: other.slug })).status).toBe(404);
    // Nothing of the refused batches was stored.
    const stored = await database.db.select().from(analyticsEvents).where(eq(analyticsEvents.viewId, view));
    expect(stored).toEqual([]);
  });

  it("refuses a batch for another viewer's view", async () => {
    const view = randomUUID();
    expect((await send({ view, source: "share", events: [{ slide: 1, ms: 0 }] })).status).toBe(204);
    expect((await send({ view, source: "share", events: [{ slide: 4, ms: 0 }] }, { ua: firefox })).status).toBe(422);
  });

  it("takes batches only from a viewer page: its Origin and the page token its events URL holds", async () => {
    const eventsUrl = eventsUrlIn(await (await dispatch(new Request(`http://localhost/d/${slug}`))).text());
    expect(eventsUrl).toMatch(new RegExp(`^/d/${slug}/events\\?t=\\d+\\.[\\w-]{43}$`));
    const batch = () => ({ view: randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] });
    expect((await send(batch(), { url: eventsUrl })).status).toBe(204);
    // A browser may send "null" for a page whose Referrer-Policy is no-referrer (the viewer pages').
    expect((await send(batch(), { url: eventsUrl, origin: "null" })).status).toBe(204);

    const noOrigin = await send(batch(), { url: eventsUrl, origin: null });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error).toMatchObject({ code: "forbidden", message: expect.stringContaining("no Origin") });
    const week = 7 * 24 * 60 * 60 * 1000;
    const otherSlug = beaconUrl("zzzzzzzzzzzz").split("?")[1];
    for (const url of [
      `/d/${slug}/events`,
      `/d/${slug}/events?t=`,
      `/d/${slug}/events?${otherSlug}`,
      beaconUrl(slug, Date.now() - week - 1000),
      eventsUrl.replace(/.$/, (last: string) => (last === "A" ? "B" : "A")),
    ]) {
      const refused = await send(batch(), { url });
      expect(refused.status, url).toBe(403);
      expect(refused.body.error.message).toContain("page token");
    }
  });

  it("counts one viewer however X-Forwarded-For is rotated, unless a proxy is trusted to write it", async () => {
    const fresh = await publish(author, ["One"]);
    const totals = async () =>
      (await call("GET", `/decks/${fresh.id}/analytics`, { key: author.key })).body.totals as Record<string, number>;
    for (let index = 0; index < 20; index++) {
      const status = (
        await send(
          { view: randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] },
          {
            to: fresh.slug,
            headers: { "x-forwarded-for": `198.51.100.${index + 1}`, "x-real-ip": `192.0.2.${index}` },
          },
        )
      ).status;
      expect(status).toBe(204);
    }
    expect(await totals()).toMatchObject({ views: 20, uniqueViewers: 1 });
    // Behind one trusted proxy its entry is the client's: two addresses are two viewers, whatever they prepend.
    process.env.TRUSTED_PROXIES = "1";
    try {
      for (const forwarded of ["203.0.113.1, 198.51.100.200", "203.0.113.2, 198.51.100.200", "198.51.100.201"]) {
        await send(
          { view: randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] },
          { to: fresh.slug, headers: { "x-forwarded-for": forwarded } },
        );
      }
    } finally {
      delete process.env.TRUSTED_PROXIES;
    }
    expect(await totals()).toMatchObject({ views: 23, uniqueViewers: 3 });
  });

  it("rate-limits per viewer", async () => {
    process.env.ANALYTICS_VIEWER_EVENTS_PER_MINUTE = "3";
    try {
      const ua = `${firefox} limited-${randomUUID()}`;
      const statuses: number[] = [];
      for (let index = 0; index < 5; index++) {
        statuses.push(
          (await send({ view: randomUUID(), source: "share", events: [{ slide: 1, ms: 0 }] }, { ua })).status,
        );
      }
      // A window boundary may fall inside the burst: at least one refusal either way.
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      delete process.env.ANALYTICS_VIEWER_EVENTS_PER_MINUTE;
    }
  });
});

describe("reading analytics", () => {
  it("is for the deck's organization only, and checks its range", async () => {
    const stranger = await createUser();
    expect((await call("GET", `/decks/${deckId}/analytics`, { key: stranger.key })).status).toBe(404);
    expect((await analytics("?from=2026-02-01&to=2026-01-01")).status).toBe(422);
    expect((await analytics("?from=2020-01-01&to=2026-01-01")).status).toBe(422);
    expect((await analytics("?from=yesterday")).status).toBe(422);
    const range = await analytics("?from=2026-01-01&to=2026-01-03");
    expect(range.status).toBe(200);
    expect(range.body.perDay.map((day: { day: string }) => day.day)).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-01-03",
    ]);
    expect(range.body.totals.views).toBe(0);
  });

  it("sweeps raw events past retention and old viewer hashes, keeping the rollups", async () => {
    const before = (await analytics()).body.totals;
    // Three days on: the views are kept, their hashes are not.
    await sweepAnalytics(database.db, new Date(Date.now() + 3 * 24 * 60 * 60 * 1000));
    const views = await database.db.select().from(analyticsViews).where(eq(analyticsViews.deckId, deckId));
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((view) => view.visitor === "")).toBe(true);
    const later = new Date(Date.now() + 200 * 24 * 60 * 60 * 1000);
    await sweepAnalytics(database.db, later);
    expect(await database.db.select().from(analyticsEvents).where(eq(analyticsEvents.deckId, deckId))).toEqual([]);
    expect(await database.db.select().from(analyticsVisitors).where(eq(analyticsVisitors.deckId, deckId))).toEqual([]);
    expect(await database.db.select().from(analyticsViews).where(eq(analyticsViews.deckId, deckId))).toEqual([]);
    expect((await analytics()).body.totals).toEqual(before);
    const [deck] = await database.db.select().from(decks).where(eq(decks.id, deckId));
    expect(deck?.publicSlug).toBe(slug);
  });
});
