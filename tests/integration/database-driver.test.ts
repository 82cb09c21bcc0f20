import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { call, createUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource } from "../helpers/decks";

// What the domain relies on from the database, on whichever driver this run uses: PGlite (npm test),
// node-postgres (npm run test:pg) or the Neon driver over WebSockets (npm run test:neon).

let database: Database;

beforeAll(async () => {
  database = await setUpTestDatabase();
});

// Every driver answers execute() with { rows }; the shared Db type leaves it unknown.
const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

const expectedDriver = process.env.EXPECT_DATABASE_DRIVER ?? (process.env.TEST_DATABASE_URL ? "pg" : "pglite");

describe(`the database driver (${expectedDriver})`, () => {
  it("is the driver this run is meant to test", () => {
    expect(database.driver).toBe(expectedDriver);
  });

  it("rolls a failed transaction back entirely", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(decks).set({ title: "Changed inside" }).where(eq(decks.id, deck.id));
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const [row] = await database.db.select({ title: decks.title }).from(decks).where(eq(decks.id, deck.id));
    expect(row!.title).toBe("Test deck");
  });

  it("numbers concurrent versions 1..N without a gap (the deck row lock)", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: deckSource([`Write ${i}`]) } }),
      ),
    );
    expect(writes.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(writes.map((res) => res.body.version as number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("refuses to change or delete a version (the append-only trigger)", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    expect(
      (await call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: deckSource() } })).status,
    ).toBe(200);
    const version = and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, 1));
    await expect(database.db.update(deckVersions).set({ prompt: "rewritten" }).where(version)).rejects.toThrow();
    await expect(database.db.delete(deckVersions).where(version)).rejects.toThrow();
  });

  // PGlite runs one connection, so a second transaction waits for the first instead of skipping its rows.
  it.skipIf(expectedDriver === "pglite")("skips rows another transaction holds (FOR UPDATE SKIP LOCKED)", async () => {
    const user = await createUser();
    const deck = await createDeck(user);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM decks WHERE id = ${deck.id} FOR UPDATE`);
      locked();
      await held;
    });
    await isLocked;
    const skipped = await database.db.transaction((tx) =>
      tx.execute(sql`SELECT id FROM decks WHERE id = ${deck.id} FOR UPDATE SKIP LOCKED`),
    );
    release();
    await first;
    expect(rowsOf(skipped)).toEqual([]);
    const free = await database.db.transaction((tx) =>
      tx.execute(sql`SELECT id FROM decks WHERE id = ${deck.id} FOR UPDATE SKIP LOCKED`),
    );
    expect(rowsOf(free)).toEqual([{ id: deck.id }]);
  });
});
