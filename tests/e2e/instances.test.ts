import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { rateLimits } from "@/lib/db/schema/rate-limits";
import { hashApiKey } from "@/lib/auth/api-keys";
import { batchSize } from "@/lib/limits/rate-limit";
import { createUser, type TestUser, windowWithRoom } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource, setContent } from "../helpers/decks";
import { type Instance, startInstance } from "../helpers/instances";

// Many instances on one PostgreSQL database: separate processes, each with its own pool, local runner and
// Chromium, sharing the database and a file folder, as N `npm start` behind a load balancer. Requests go
// to either; exports, versions, allowances and rate limits must hold across them. Needs PostgreSQL
// (npm run test:pg runs it); on PGlite one process owns the database, so there is nothing to share.

const databaseUrl = process.env.TEST_DATABASE_URL;
const LEASE_MS = 6000;
const RATE_LIMIT = 60;
const ALLOWANCE = 10;
const KEY_CACHE_SECONDS = 2;

let database: Database;
let dataDir: string;
const running: Instance[] = [];

async function start(): Promise<Instance> {
  const instance = await startInstance({
    DATABASE_URL: databaseUrl!,
    DATA_DIR: dataDir,
    APP_SECRET: secret,
    LOG_REQUESTS: "0",
    EXPORT_LEASE_MS: String(LEASE_MS),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    RATE_LIMIT_WINDOW_SECONDS: "3600",
    VERSION_EDIT_ALLOWANCE: String(ALLOWANCE),
    API_KEY_CACHE_SECONDS: String(KEY_CACHE_SECONDS),
  });
  running.push(instance);
  return instance;
}
const secret = randomBytes(32).toString("base64url");

async function send(instance: Instance, method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(`${instance.origin}/api/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const exportRows = (ids: string[]) =>
  database.db.select().from(exports).where(inArray(exports.id, ids)).orderBy(asc(exports.id));
const storedExports = () => new Set(fs.readdirSync(path.join(dataDir, "blobs", "exports")));

describe.skipIf(!databaseUrl)("two instances on one PostgreSQL database", () => {
  let a: Instance;
  let b: Instance;
  let owner: TestUser;
  let org: string;

  beforeAll(async () => {
    database = await setUpTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-instances-"));
    org = `org-${randomUUID()}`;
    owner = await createUser({ org });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(running.map((instance) => instance.stop()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes on another instance the export whose renderer was killed", async () => {
    // A long deck, queued on the only instance running, which claims it at once; killed mid-render.
    const deck = await createDeck(owner, { title: "Killed" });
    const labels = Array.from({ length: 40 }, (_, i) => `Slide ${i + 1}`);
    expect((await setContent(owner, deck.id, { source: deckSource(labels) })).status).toBe(200);
    const doomed = await start();
    const queued = await send(doomed, "POST", `/decks/${deck.id}/exports`, owner.key, { format: "pdf" });
    expect(queued.status).toBe(202);
    await expect
      .poll(async () => (await exportRows([queued.body.id]))[0]!.status, { timeout: 60_000, interval: 20 })
      .toBe("running");
    await doomed.stop("SIGKILL");

    // The survivors reclaim it once its lease has expired: a second attempt, one file.
    [a, b] = await Promise.all([start(), start()]);
    await expect
      .poll(async () => (await exportRows([queued.body.id]))[0]!.status, { timeout: 120_000, interval: 200 })
      .toBe("completed");
    const [row] = await exportRows([queued.body.id]);
    expect(row).toMatchObject({ attempts: 2, error: null, blobKey: `exports/${row!.id}.pdf` });
    expect(storedExports().has(`${row!.id}.pdf`)).toBe(true);
  }, 240_000);

  it("renders 40 exports queued through both exactly once each", async () => {
    const deck = await createDeck(owner, { title: "Forty" });
    expect((await setContent(owner, deck.id, { source: deckSource(["One", "Two"]) })).status).toBe(200);
    await send(a, "PATCH", `/decks/${deck.id}`, owner.key, { visibility: "org" });
    // One export per colleague (one key asking twice within 10 minutes gets the same export back).
    const colleagues = await Promise.all(Array.from({ length: 40 }, () => createUser({ org })));
    const created = await Promise.all(
      colleagues.map((colleague, i) =>
        send(i % 2 ? b : a, "POST", `/decks/${deck.id}/exports`, colleague.key, { format: "pdf" }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual(colleagues.map(() => 202));
    const ids = created.map((res) => res.body.id as string);
    expect(new Set(ids).size).toBe(40);

    await expect
      .poll(async () => (await exportRows(ids)).filter((row) => row.status === "completed").length, {
        timeout: 400_000,
        interval: 500,
      })
      .toBe(40);
    // Claimed once each (the claim counts attempts), stored once each under the export's id.
    const rows = await exportRows(ids);
    expect(rows.map((row) => [row.attempts, row.blobKey])).toEqual(rows.map((row) => [1, `exports/${row.id}.pdf`]));
    const files = storedExports();
    expect(ids.filter((id) => files.has(`${id}.pdf`))).toHaveLength(40);
    expect([...files].filter((file) => ids.some((id) => file.startsWith(id)))).toHaveLength(40);
  }, 480_000);

  it("holds the version allowance across both: 50 concurrent edits, 10 saved, numbered 1..10", async () => {
    const editor = await createUser();
    const deck = await send(a, "POST", "/decks", editor.key, { title: "Allowance" });
    expect(deck.status).toBe(201);
    const edits = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(i % 2 ? b : a, "PUT", `/decks/${deck.body.id}/content`, editor.key, {
          source: deckSource([`Edit ${i}`]),
        }),
      ),
    );
    const statuses = edits.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(ALLOWANCE);
    expect(statuses.filter((status) => status === 402)).toHaveLength(50 - ALLOWANCE);
    expect(edits.find((res) => res.status === 402)!.body.error.code).toBe("allowance_exhausted");
    const saved = await database.db
      .select({ number: deckVersions.version })
      .from(deckVersions)
      .where(eq(deckVersions.deckId, deck.body.id))
      .orderBy(asc(deckVersions.version));
    expect(saved.map((row) => row.number)).toEqual(Array.from({ length: ALLOWANCE }, (_, i) => i + 1));
  }, 240_000);

  it("holds one key's rate limit across both, within the documented overshoot: 100 concurrent requests", async () => {
    const caller = await createUser();
    await windowWithRoom(3600, 120);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => send(i % 2 ? b : a, "GET", "/decks", caller.key)),
    );
    const answered = answers.filter((res) => res.status === 200).length;
    // Each instance may hold a batch (a tenth of the limit) it has counted and not yet written.
    expect(answered).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(answered).toBeLessThanOrEqual(RATE_LIMIT + 2 * batchSize(RATE_LIMIT, false));
    expect(answers.filter((res) => res.status === 429)).toHaveLength(100 - answered);
    // Every request is in the database once the batches are written, none lost on the way.
    const [key] = await database.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashApiKey(caller.key)));
    await expect
      .poll(async () => {
        const [row] = await database.db
          .select({ count: rateLimits.count })
          .from(rateLimits)
          .where(eq(rateLimits.bucket, `key:${key!.id}:default`));
        return row?.count;
      })
      .toBe(100);
  }, 240_000);

  it("refuses on the other instance, within API_KEY_CACHE_SECONDS, a key revoked on one", async () => {
    const caller = await createUser();
    expect((await send(a, "GET", "/decks", caller.key)).status).toBe(200);
    expect((await send(b, "GET", "/decks", caller.key)).status).toBe(200);
    // Revoked in the database (as an instance's settings page does): neither has to look it up again yet.
    const revokedAt = Date.now();
    await database.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.keyHash, hashApiKey(caller.key)));
    for (const instance of [a, b]) {
      await expect
        .poll(async () => (await send(instance, "GET", "/decks", caller.key)).status, { interval: 50 })
        .toBe(401);
    }
    expect(Date.now() - revokedAt).toBeLessThan(KEY_CACHE_SECONDS * 1000 + 1000);
  }, 60_000);
});
