import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { analyticsQuery, eventBatchBody } from "@/lib/analytics/schemas";
import { daySalt, isBot, optedOut, utcDay, visitorHash } from "@/lib/analytics/visitor";

// The cookieless viewer hash (the same viewer all day, another one the next day, nothing reversible kept),
// the opt-out and bot rules, and the validation of the page's batches.

const secret = Buffer.from("a".repeat(32));
const viewer = { secret, ip: "203.0.113.7", userAgent: "Mozilla/5.0 Chrome/147", deckId: randomUUID() };

describe("the viewer hash", () => {
  it("is stable within a UTC day and changes with the day, the address, the browser, the deck and the secret", () => {
    const today = visitorHash({ ...viewer, day: "2026-11-26" });
    expect(visitorHash({ ...viewer, day: "2026-11-26" })).toBe(today);
    expect(today).toMatch(/^[\w-]{22}$/);
    expect(today).not.toContain("203.0.113.7");
    for (const other of [
      { ...viewer, day: "2026-11-27" },
      { ...viewer, day: "2026-11-26", ip: "203.0.113.8" },
      { ...viewer, day: "2026-11-26", userAgent: "Mozilla/5.0 Firefox/140" },
      { ...viewer, day: "2026-11-26", deckId: randomUUID() },
      { ...viewer, day: "2026-11-26", secret: Buffer.from("b".repeat(32)) },
    ]) {
      expect(visitorHash(other)).not.toBe(today);
    }
  });

  it("rotates its salt at UTC midnight", () => {
    expect(utcDay(new Date("2026-11-26T23:59:59.999Z"))).toBe("2026-11-26");
    expect(utcDay(new Date("2026-11-27T00:00:00.000Z"))).toBe("2026-11-27");
    // A viewer just before and just after midnight (in any time zone of the server) is two viewers.
    const before = visitorHash({ ...viewer, day: utcDay(new Date("2026-11-26T23:59:59Z")) });
    const after = visitorHash({ ...viewer, day: utcDay(new Date("2026-11-27T00:00:01Z")) });
    expect(before).not.toBe(after);
    expect(daySalt(secret, "2026-11-26").equals(daySalt(secret, "2026-11-27"))).toBe(false);
    expect(daySalt(secret, "2026-11-26")).toHaveLength(32);
  });
});

describe("opting out and bots", () => {
  it("honours DNT: 1 and Sec-GPC: 1", () => {
    expect(optedOut(new Headers({ dnt: "1" }))).toBe(true);
    expect(optedOut(new Headers({ "sec-gpc": "1" }))).toBe(true);
    expect(optedOut(new Headers({ dnt: "0" }))).toBe(false);
    expect(optedOut(new Headers())).toBe(false);
  });

  it("filters crawlers, unfurlers, scripts and headless browsers by user agent", () => {
    for (const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (compatible; bingbot/2.0)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "facebookexternalhit/1.1",
      "Twitterbot/1.0",
      "curl/8.5.0",
      "python-requests/2.32",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/147.0.0.0 Safari/537.36",
      "",
      null,
    ]) {
      expect(isBot(ua), String(ua)).toBe(true);
    }
    for (const ua of [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0",
    ]) {
      expect(isBot(ua), ua).toBe(false);
    }
  });
});

describe("the page's batches", () => {
  const view = randomUUID();
  const ok = (body: unknown) => eventBatchBody.safeParse(body).success;

  it("accepts what the beacon sends", () => {
    expect(
      ok({
        view,
        source: "share",
        referrer: null,
        events: [
          { slide: 1, ms: 0 },
          { slide: 2, ms: 1500 },
        ],
      }),
    ).toBe(true);
    expect(ok({ view, source: "presenter", events: [{ slide: 3, ms: 0 }] })).toBe(true);
    expect(
      eventBatchBody.parse({ view, source: "embed", referrer: "Blog.Example.org:8080", events: [{ slide: 1, ms: 0 }] })
        .referrer,
    ).toBe("blog.example.org:8080");
  });

  it("refuses anything else", () => {
    const events = [{ slide: 1, ms: 0 }];
    expect(ok({ view: "not-a-uuid", source: "share", events })).toBe(false);
    expect(ok({ view, source: "email", events })).toBe(false);
    expect(ok({ view, source: "share", events: [] })).toBe(false);
    expect(ok({ view, source: "share", events: Array(101).fill({ slide: 1, ms: 0 }) })).toBe(false);
    expect(ok({ view, source: "share", events: [{ slide: 0, ms: 0 }] })).toBe(false);
    expect(ok({ view, source: "share", events: [{ slide: 1.5, ms: 0 }] })).toBe(false);
    expect(ok({ view, source: "share", events: [{ slide: 1, ms: 3_600_001 }] })).toBe(false);
    expect(ok({ view, source: "share", events: [{ slide: 1, ms: 0, label: "x" }] })).toBe(false);
    expect(ok({ view, source: "share", referrer: "https://a.example/path?q=1", events })).toBe(false);
    expect(ok({ view, source: "share", events, cookie: "x" })).toBe(false);
  });

  it("reads a range of UTC days", () => {
    expect(analyticsQuery.safeParse({ from: "2026-11-01", to: "2026-11-26" }).success).toBe(true);
    expect(analyticsQuery.safeParse({ from: "2026-13-01" }).success).toBe(false);
    expect(analyticsQuery.safeParse({ since: "2026-11-01" }).success).toBe(false);
  });
});
