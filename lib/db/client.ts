import "server-only";
import path from "node:path";
import { config, setting } from "@/lib/core/config";
import type { Db } from "./types";

// Picks the driver from the environment (DESIGN.md, "Embedded defaults"):
//   no DATABASE_URL        → PGlite in DATA_DIR/pglite, migrated on open (one process per folder)
//   a Neon URL             → @neondatabase/serverless over WebSockets (transactions work)
//   any other postgres URL → node-postgres pool
// One instance per process, kept on globalThis so dev-server reloads reuse it.

export type Database = { db: Db; driver: "pglite" | "pg" | "neon"; close: () => Promise<void> };

const migrationsFolder = path.join(process.cwd(), "drizzle");

const holder = globalThis as typeof globalThis & { __deckhandDatabase?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  holder.__deckhandDatabase ??= openDatabase(config.databaseUrl).catch((error: unknown) => {
    holder.__deckhandDatabase = undefined;
    throw error;
  });
  return holder.__deckhandDatabase;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes the process's database if it was opened (PGlite cleanly, pools drained); at shutdown. */
export async function closeDatabase(): Promise<void> {
  const opened = holder.__deckhandDatabase;
  holder.__deckhandDatabase = undefined;
  if (opened) await (await opened).close();
}

// Makes an already open database the process's database (tests, and scripts that open their own).
export function adoptDatabase(database: Database): void {
  holder.__deckhandDatabase = Promise.resolve(database);
}

function isNeonUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host.endsWith(".neon.tech") || setting("DATABASE_DRIVER") === "neon";
}

export async function openDatabase(url: string | undefined): Promise<Database> {
  if (!url) return openPglite(path.join(config.dataDir, "pglite"));
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  return isNeonUrl(url) ? openNeon(url) : openPg(url);
}

export async function openPglite(dataDir: string | undefined, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { acquireDataDirLock } = await import("./pglite-lock");

  const release = dataDir ? acquireDataDirLock(path.dirname(dataDir)) : () => {};
  try {
    const client = await PGlite.create({ dataDir, loadDataDir: options.loadDataDir });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      driver: "pglite",
      close: async () => {
        if (!client.closed) await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

async function openPg(url: string): Promise<Database> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = new Pool({ connectionString: url, max: setting("DATABASE_POOL_SIZE") });
  return { db: drizzle({ client: pool }) as unknown as Db, driver: "pg", close: () => pool.end() };
}

async function openNeon(url: string): Promise<Database> {
  const { Pool, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  // Node 22+ has a global WebSocket; Node 20 needs the `ws` package.
  if (typeof globalThis.WebSocket === "undefined") {
    neonConfig.webSocketConstructor = (await import("ws")).default;
  }
  // A WebSocket-to-Postgres proxy of one's own (local development and the tests, as Neon documents it):
  // plain ws:// to the proxy and no TLS inside, the proxy connecting to the address it is given.
  const proxy = setting("DATABASE_NEON_WS_PROXY");
  if (proxy) {
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.forceDisablePgSSL = true;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: url });
  return { db: drizzle({ client: pool }) as unknown as Db, driver: "neon", close: () => pool.end() };
}

// Runs the committed SQL migrations on a server database (PGlite migrates itself on open).
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.driver === "pglite") return;
  const { migrate } =
    database.driver === "neon"
      ? await import("drizzle-orm/neon-serverless/migrator")
      : await import("drizzle-orm/node-postgres/migrator");
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each migrator wants its own driver type
  await migrate(database.db as any, { migrationsFolder });
}
