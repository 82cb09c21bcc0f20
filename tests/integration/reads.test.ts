import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import type { Db } from "@/lib/db/types";
import { readVersion } from "@/lib/decks/version-cache";
import { hashApiKey } from "@/lib/auth/api-keys";
import { call, createUser, windowWithRoom } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

// Reads that stay reads: a key read recently is not looked up again (a revocation elsewhere is taken up
// within API_KEY_CACHE_SECONDS), requests far from the rate limit are counted in memory and written in
// batches, and reads answer ETags and 304s.

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

afterEach(() => {
  delete process.env.API_KEY_CACHE_SECONDS;
  process.env.RATE_LIMIT_PER_MINUTE = "100000";
  delete process.env.RATE_LIMIT_WINDOW_SECONDS;
  delete process.env.RATE_LIMIT_FLUSH_MS;
});

describe("API keys read once in a while", () => {
  it("takes up a revocation made elsewhere within API_KEY_CACHE_SECONDS", async () => {
    process.env.API_KEY_CACHE_SECONDS = "2";
    const user = await createUser();
    expect((await call("GET", "/decks", { key: user.key })).status).toBe(200);
    // Revoked in the database alone, as another instance would: this instance still has the key read.
    const revokedAt = Date.now();
    await database.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.keyHash, hashApiKey(user.key)));
    expect((await call("GET", "/decks", { key: user.key })).status).toBe(200);
    await expect.poll(async () => (await call("GET", "/decks", { key: user.key })).status, { interval: 50 }).toBe(401);
    // Refused once the copy it read is 2 s old: the bound, plus the time one request takes.
    expect(Date.now() - revokedAt).toBeLessThan(2000 + 1000);
  });
});

describe("rate limits without a write per request", () => {
  it("counts requests in memory and writes them in one batch, exactly", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "1000";
    process.env.RATE_LIMIT_WINDOW_SECONDS = "60";
    // Counts wait 3 s in memory here (200 ms by default), so five requests are sure to be answered before
    // the first write however busy the machine is.
    process.env.RATE_LIMIT_FLUSH_MS = "3000";
    await windowWithRoom(60, 10);
    const user = await createUser();
    const [key] = await database.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashApiKey(user.key)));
    const counted = async () => {
      const [row] = await database.db
        .select({ count: rateLimits.count })
        .from(rateLimits)
        .where(eq(rateLimits.bucket, `key:${key!.id}:default`));
      return row?.count ?? 0;
    };
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call("GET", "/decks", { key: user.key }));
    expect(answers.map((res) => res.headers.get("ratelimit-remaining"))).toEqual(["999", "998", "997", "996", "995"]);
    // Not one write per request: the five are written together, RATE_LIMIT_FLUSH_MS after the first.
    expect(await counted()).toBe(0);
    await expect.poll(counted, { interval: 100, timeout: 10_000 }).toBe(5);
  });
});

describe("conditional reads", () => {
  it("answers ETags, 304 without a body while they are current, and a new tag when the deck changes", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Cached" });
    expect((await setContent(user, deck.id, { source: deckSource(["One"]) })).status).toBe(200);

    const first = await call("GET", `/decks/${deck.id}`, { key: user.key });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toBe("Authorization");
    const again = await call("GET", `/decks/${deck.id}`, { key: user.key, headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get("etag")).toBe(etag);
    // A list of tags, weak or strong, matches too.
    const listed = { "if-none-match": `"other", W/${etag}` };
    expect((await call("GET", `/decks/${deck.id}`, { key: user.key, headers: listed })).status).toBe(304);

    expect((await setContent(user, deck.id, { source: deckSource(["One", "Two"]) })).status).toBe(200);
    const changed = await call("GET", `/decks/${deck.id}`, { key: user.key, headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(changed.body.versionCount).toBe(2);

    const list = await call("GET", "/decks", { key: user.key });
    const listAgain = await call("GET", "/decks", {
      key: user.key,
      headers: { "if-none-match": list.headers.get("etag")! },
    });
    expect(listAgain.status).toBe(304);

    // A version never changes: callers may keep it for good.
    const version = await call("GET", `/decks/${deck.id}/versions/1`, { key: user.key });
    expect(version.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const versionAgain = await call("GET", `/decks/${deck.id}/versions/1`, {
      key: user.key,
      headers: { "if-none-match": version.headers.get("etag")! },
    });
    expect(versionAgain.status).toBe(304);

    // Another key of another organization gets its own answer, never the 304 of someone else's tag.
    const stranger = await createUser();
    expect(
      (await call("GET", `/decks/${deck.id}`, { key: stranger.key, headers: { "if-none-match": etag } })).status,
    ).toBe(404);
  });

  it("answers get_export with an ETag that changes with its status", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Export tag" });
    expect((await setContent(user, deck.id, { source: deckSource(["One"]) })).status).toBe(200);
    const created = await call("POST", `/decks/${deck.id}/exports`, { key: user.key, body: { format: "pdf" } });
    const first = await call("GET", `/exports/${created.body.id}`, { key: user.key });
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^"[\w-]{32}"$/);
    const next = await call("GET", `/exports/${created.body.id}`, { key: user.key, headers: { "if-none-match": tag } });
    // 304 while nothing changed; a full answer with another tag once the export moved on meanwhile.
    if (next.status === 200) {
      expect(next.body.status).not.toBe(first.body.status);
      expect(next.headers.get("etag")).not.toBe(tag);
    } else {
      expect(next.status).toBe(304);
    }
  });
});

describe("versions kept in memory", () => {
  it("reads a version from the database once, and never keeps one read inside a transaction", async () => {
    const user = await createUser();
    const deck = await createDeck(user, { title: "Kept" });
    expect((await setContent(user, deck.id, { source: deckSource(["One"]) })).status).toBe(200);
    const first = await readVersion(database.db, deck.id, 1);
    expect(first?.source).toBe(deckSource(["One"]));
    expect(await readVersion(database.db, deck.id, 1)).toBe(first);
    // A version seen inside a transaction that is then rolled back is not remembered.
    await database.db
      .transaction(async (tx) => {
        await tx.insert(deckVersions).values({ ...first!, id: undefined, version: 2, source: "rolled back" });
        expect((await readVersion(tx as unknown as Db, deck.id, 2))?.source).toBe("rolled back");
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await readVersion(database.db, deck.id, 2)).toBeNull();
  });
});
