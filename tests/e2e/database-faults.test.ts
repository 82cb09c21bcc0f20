import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { deckSource } from "../helpers/decks";
import { type Instance, startInstance } from "../helpers/instances";

// What a `next start` server does when what it stands on fails (issue 34, items 8 and 12): a stop whose
// database pool cannot drain (a request holding a connection, blocked on a row lock this test holds) still
// exits by SHUTDOWN_GRACE_MS; and a start sweeps the temporary files a killed write left in DATA_DIR/blobs.
// The stop needs PostgreSQL (npm run test:pg); the sweep runs on either database.

const databaseUrl = process.env.TEST_DATABASE_URL ?? "";
const started: Instance[] = [];
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((instance) => instance.stop("SIGKILL")));
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-faults-"));
  folders.push(dataDir);
  return dataDir;
}

async function start(env: Record<string, string>): Promise<Instance> {
  const instance = await startInstance({ DATABASE_URL: databaseUrl, LOG_REQUESTS: "0", ...env });
  started.push(instance);
  return instance;
}

const GRACE_MS = 2000;

describe.skipIf(!databaseUrl)("stopping with the database pool still in use (PostgreSQL)", () => {
  it("exits by its grace period though a request holds a connection, saying the pool did not close (exit 1)", async () => {
    const dataDir = dataFolder();
    const key = execFileSync(
      "node_modules/.bin/tsx",
      ["--conditions=react-server", "scripts/keys.ts", "create", "--email", `held-${Date.now()}@example.test`],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, encoding: "utf8" },
    )
      .trim()
      .split("\n")
      .at(-1)!;
    const server = await start({ DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
    const call = (method: string, route: string, body?: unknown) =>
      fetch(`${server.origin}/api/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const deck = (await (await call("POST", "/decks", { title: "Held" })).json()) as { id: string };

    // This test holds the deck's row; the server's version write waits for it inside its transaction.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT id FROM decks WHERE id = $1 FOR UPDATE", [deck.id]);
    const blocked = call("PUT", `/decks/${deck.id}/content`, { source: deckSource(["Held"]) }).catch(() => null);
    await expect
      .poll(
        async () =>
          (
            await holder.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
          ).rows[0].n,
      )
      .toBe(1);

    const stopping = Date.now();
    const stop = server.stop("SIGTERM");
    const stopped = await Promise.race([
      server.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), GRACE_MS + 15_000)),
    ]);
    const took = Date.now() - stopping;
    await holder.query("ROLLBACK");
    await holder.end();
    await Promise.all([blocked, stop]);
    expect(stopped).toEqual({ code: 1, signal: null });
    expect(took).toBeLessThan(GRACE_MS + 5000);
  }, 120_000);
});

describe("starting", () => {
  it("sweeps the temporary files a killed write left in the file store, and keeps the files it stored", async () => {
    const dataDir = dataFolder();
    const assets = path.join(dataDir, "blobs", "assets");
    fs.mkdirSync(assets, { recursive: true });
    const stale = path.join(assets, "lost.png.4242.1700000000000.tmp");
    const stored = path.join(assets, "kept.png");
    fs.writeFileSync(stale, "half a file");
    fs.writeFileSync(stored, "a stored file");
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000);
    fs.utimesSync(stale, tenMinutesAgo, tenMinutesAgo);

    await start({ DATA_DIR: dataDir });
    await expect.poll(() => fs.existsSync(stale)).toBe(false);
    expect(fs.readFileSync(stored, "utf8")).toBe("a stored file");
  }, 120_000);
});
