import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createKeyForEmail } from "@/lib/auth/accounts";
import { migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";
import { seedDataDir } from "./pglite-template";

// A production server (`next start`, built first when the sources changed) on a loopback port with a
// fresh embedded database of its own (a copy of the run's migrated template, tests/helpers/pglite-template.ts),
// or on DATABASE_URL. Used by the browser app's end-to-end tests and the benchmarks.

export type NextServer = {
  origin: string;
  /** The API key made before the start (`withApiKey`), else "". */
  key: string;
  pid: number;
  stop: () => Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startNextServer(
  options: {
    env?: Record<string, string>;
    /** Makes a user, an organization and an API key in the server's database before it starts (`key`). */
    withApiKey?: boolean;
  } = {},
): Promise<NextServer> {
  execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-next-"));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    APP_URL: origin,
    PORT: String(port),
    ...options.env,
  };
  if (!env.DATABASE_URL) seedDataDir(dataDir);
  let key = "";
  if (env.DATABASE_URL || options.withApiKey) {
    // In this process, before the server owns the database (PGlite takes one process at a time).
    const database = env.DATABASE_URL
      ? await openDatabase(env.DATABASE_URL)
      : await openPglite(path.join(dataDir, "pglite"));
    try {
      await migrateDatabase(database);
      if (options.withApiKey)
        ({ key } = await createKeyForEmail(database.db, { email: `key-${crypto.randomUUID()}@example.test` }));
    } finally {
      await database.close();
    }
  }
  const server = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  // A busy machine can take tens of seconds to start it; two minutes means it will not start.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not start within two minutes");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    key,
    pid: server.pid!,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
