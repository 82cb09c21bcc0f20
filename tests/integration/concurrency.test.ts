import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { allowances } from "@/lib/db/schema/usage";
import type { Database } from "@/lib/db/client";
import { call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";

let database: Database;
let author: TestUser;

beforeAll(async () => {
  database = await setUpTestDatabase();
  author = await createUser();
});

describe("concurrent writers", () => {
  it("50 concurrent PUT /content on one deck yield versions 1..50 exactly", async () => {
    const deck = await createDeck(author);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        setContent(author, deck.id, { source: deckSource([`Slide ${i}`]), prompt: `writer ${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const versions = results.map((r) => r.body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const list = await call("GET", `/decks/${deck.id}/versions`, { key: author.key });
    expect(list.body.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i));
    const detail = await call("GET", `/decks/${deck.id}`, { key: author.key });
    expect(detail.body.versionCount).toBe(50);
    // Each writer's content landed in the version number it was given.
    for (const result of results.slice(0, 5)) {
      const version = await call("GET", `/decks/${deck.id}/versions/${result.body.version}`, { key: author.key });
      expect(version.body.id).toBe(result.body.id);
    }
  });

  it("20 concurrent writes against an allowance of 10: exactly 10 succeed and 10 get 402", async () => {
    const user = await createUser();
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "version_edits", monthlyLimit: 10 });
    const deck = await createDeck(user);
    const results = await Promise.all(Array.from({ length: 20 }, () => setContent(user, deck.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    const versions = results.filter((r) => r.status === 200).map((r) => r.body.version as number);
    expect(versions.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });
});

describe("concurrent AI edits against the allowance", () => {
  it("50 concurrent edits against an allowance of 10: exactly 10 succeed and 40 get 402", async () => {
    const user = await createUser();
    // One deck per edit, so edits do not conflict with each other (same-deck edits are conditional: 409).
    const userDecks = await Promise.all(Array.from({ length: 50 }, () => createDeck(user)));
    for (const deck of userDecks)
      expect((await setContent(user, deck.id, { source: deckSource(["Intro"]) })).status).toBe(200);
    // 50 version edits used this month by the first writes; 10 left.
    await database.db
      .insert(allowances)
      .values({ organizationId: user.organizationId, featureId: "version_edits", monthlyLimit: 60 });

    const results = await Promise.all(
      userDecks.map((deck) =>
        call("POST", `/decks/${deck.id}/edit`, { key: user.key, body: { instruction: '"Intro" → "Welcome"' } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    for (const refused of results.filter((r) => r.status === 402)) {
      expect(refused.body.error).toMatchObject({ code: "allowance_exhausted", featureId: "version_edits" });
    }
    // Exactly the ten successful edits wrote a second version; the refused decks still have one.
    const counts = await database.db
      .select({ id: decks.id, versionCount: decks.versionCount })
      .from(decks)
      .where(eq(decks.ownerId, user.userId));
    expect(counts.filter((d) => d.versionCount === 2)).toHaveLength(10);
    expect(counts.filter((d) => d.versionCount === 1)).toHaveLength(40);
  });
});

describe("append-only versions", () => {
  it("the database refuses to update or delete a single version, but deletes them with their deck", async () => {
    const deck = await createDeck(author);
    await setContent(author, deck.id);
    await expect(
      database.db.update(deckVersions).set({ prompt: "rewritten" }).where(eq(deckVersions.deckId, deck.id)),
    ).rejects.toThrow();
    await expect(database.db.delete(deckVersions).where(eq(deckVersions.deckId, deck.id))).rejects.toThrow();
    await expect(
      database.db.insert(deckVersions).values({ deckId: deck.id, version: 1, format: "deck-tsx" }),
    ).rejects.toThrow();

    await database.db.delete(decks).where(eq(decks.id, deck.id));
    const [{ count }] = (await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(deckVersions)
      .where(eq(deckVersions.deckId, deck.id))) as [{ count: number }];
    expect(count).toBe(0);
  });
});
