import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createKeyForEmail } from "@/lib/auth/accounts";
import { migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { twentySlideModule } from "../bench/api";
import { type Instance, startInstance } from "../helpers/instances";
import { seedDataDir } from "../helpers/pglite-template";
import { alive, chromiumBelow } from "../helpers/processes";

// Stop and crash without losing anything (issue 25): `npm start` stopped by SIGTERM to its process group
// while it renders an export exits 0 within its grace period, leaves no Chromium behind, hands the export
// back to the queue with its attempt not counted (issue 34, item 11), and the export is completed exactly
// once, on its first counted attempt, after the next start; a server killed with SIGKILL right after
// answering 50 writes has all 50 after a restart. On the embedded database, and on PostgreSQL when
// TEST_DATABASE_URL is set (then the servers share it, as any deployment does).

const databaseUrl = process.env.TEST_DATABASE_URL ?? "";
const started: Instance[] = [];
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((instance) => instance.stop("SIGKILL")));
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

// A data folder with a user and key in its database (or in the PostgreSQL database), made in this process
// before the server owns it.
async function prepare(): Promise<{ dataDir: string; key: string; env: Record<string, string> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-stop-"));
  folders.push(dataDir);
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_REQUESTS: "0" };
  if (!databaseUrl) seedDataDir(dataDir);
  const database = databaseUrl ? await openDatabase(databaseUrl) : await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrateDatabase(database);
    const { key } = await createKeyForEmail(database.db, { email: `stop-${crypto.randomUUID()}@example.test` });
    return { dataDir, key, env };
  } finally {
    await database.close();
  }
}

// An export's row as a stopped server left it, read once the server is gone (PGlite belongs to one process).
async function exportRow(dataDir: string, id: string) {
  const database = databaseUrl ? await openDatabase(databaseUrl) : await openPglite(path.join(dataDir, "pglite"));
  try {
    const [row] = await database.db
      .select({ status: exports.status, attempts: exports.attempts })
      .from(exports)
      .where(eq(exports.id, id));
    return row;
  } finally {
    await database.close();
  }
}

async function start(env: Record<string, string>, via?: "npm start"): Promise<Instance> {
  const instance = await startInstance(env, { via });
  started.push(instance);
  return instance;
}

function api(instance: Instance, key: string) {
  return async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${instance.origin}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

const GRACE_MS = 3000;

describe(`stopping the server (${databaseUrl ? "PostgreSQL" : "embedded database"})`, () => {
  it("stops on SIGTERM within its grace period, with no Chromium left, and the export it held completes once after a restart", async () => {
    const { dataDir, key, env } = await prepare();
    // A grace period shorter than the export, so the stop has to hand it back; a long lease, so the next
    // start can only take it at once if it was handed back.
    const settings = { ...env, SHUTDOWN_GRACE_MS: String(GRACE_MS), EXPORT_LEASE_MS: "120000" };
    const server = await start(settings, "npm start");
    const call = api(server, key);
    const deck = await call("POST", "/decks", { title: "Stopped mid-export" });
    const slow = twentySlideModule(1).replace(
      "<Deck>",
      "<Deck>\n      {(() => { const end = Date.now() + 8000; while (Date.now() < end); return null; })()}",
    );
    expect((await call("PUT", `/decks/${deck.body.id}/content`, { source: slow })).status).toBe(200);
    const queued = await call("POST", `/decks/${deck.body.id}/exports`, { format: "pdf" });
    expect(queued.status).toBe(202);
    await expect
      .poll(async () => (await call("GET", `/exports/${queued.body.id}`)).body.status, { interval: 50 })
      .toBe("running");
    await expect.poll(() => chromiumBelow(server.pid).length, { interval: 50 }).toBeGreaterThan(0);
    const browsers = chromiumBelow(server.pid);

    const stopping = Date.now();
    await server.stop("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(GRACE_MS + 5000);
    await expect.poll(() => browsers.filter(alive), { interval: 50, timeout: 5000 }).toEqual([]);
    // Handed back, not failed by the closing browser: waiting again, the stopped attempt not counted.
    expect(await exportRow(dataDir, queued.body.id)).toEqual({ status: "pending", attempts: 0 });

    const again = await start(settings, "npm start");
    await expect
      .poll(async () => (await api(again, key)("GET", `/exports/${queued.body.id}`)).body.status, {
        interval: 200,
        timeout: 90_000,
      })
      .toBe("completed");
    const files = fs
      .readdirSync(path.join(dataDir, "blobs", "exports"))
      .filter((file) => file.startsWith(queued.body.id));
    expect(files).toEqual([`${queued.body.id}.pdf`]);
    await again.stop("SIGTERM");
    expect((await again.exited).code).toBe(0);
    expect(await exportRow(dataDir, queued.body.id)).toEqual({ status: "completed", attempts: 1 });
  }, 240_000);

  it("keeps every acknowledged write through a SIGKILL (50 versions, all there after a restart), and leaves no browser behind", async () => {
    const { key, env } = await prepare();
    const server = await start(env);
    const call = api(server, key);
    const deck = await call("POST", "/decks", { title: "Crash" });
    const sources: string[] = [];
    for (let n = 1; n <= 50; n++) {
      const source = twentySlideModule(1000 + n);
      const saved = await call("PUT", `/decks/${deck.body.id}/content`, { source });
      expect(saved.status).toBe(200);
      sources.push(source);
    }
    // The deck check draws the deck: the server has its browser when it is killed.
    expect((await call("GET", `/decks/${deck.body.id}/check`)).status).toBe(200);
    const browsers = chromiumBelow(server.pid);
    expect(browsers.length).toBeGreaterThan(0);
    await server.stop("SIGKILL");
    expect((await server.exited).signal).toBe("SIGKILL");
    // Launched so that the kernel ends it with its parent (lib/render/chromium.ts): no orphan.
    await expect.poll(() => browsers.filter(alive), { interval: 50, timeout: 10_000 }).toEqual([]);

    // The lock the killed process left is taken over; nothing it acknowledged is missing.
    const again = await start(env);
    const reread = api(again, key);
    const versions = await reread("GET", `/decks/${deck.body.id}/versions`);
    expect(versions.body.map((v: { version: number }) => v.version)).toEqual(
      Array.from({ length: 50 }, (_, i) => 50 - i),
    );
    for (const n of [1, 25, 50]) {
      const version = await reread("GET", `/decks/${deck.body.id}/versions/${n}`);
      expect(version.body.source).toBe(sources[n - 1]);
    }
    expect((await reread("GET", `/decks/${deck.body.id}`)).body.latestVersion.source).toBe(sources[49]);
  }, 240_000);
});
