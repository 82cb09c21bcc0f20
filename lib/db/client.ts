import "server-only";
import path from "node:path";
import { sql } from "drizzle-orm";
import { config, setting } from "@/lib/core/config";
import { endPool, healingPool } from "./server-pool";
import type { Db } from "./types";

// Picks the driver from the environment (DESIGN.md, "Embedded defaults"):
//   no DATABASE_URL        → PGlite in DATA_DIR/pglite, migrated on open (one process per folder)
//   a Neon URL             → @neondatabase/serverless over WebSockets (transactions work)
//   any other postgres URL → node-postgres pool
// One instance per process, kept on globalThis so dev-server reloads reuse it.

export type Database = {
  db: Db;
  driver: "pglite" | "pg" | "neon";
  /** A server pool waits for the connections in use at most until `deadline` (then throws); PGlite closes. */
  close: (deadline?: number) => Promise<void>;
};

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

/**
 * Closes the process's database if it was opened (PGlite cleanly, pools drained): at shutdown, where a pool
 * waits for the connections still in use only until the stop's deadline.
 */
export async function closeDatabase(deadline?: number): Promise<void> {
  const opened = holder.__deckhandDatabase;
  holder.__deckhandDatabase = undefined;
  if (opened) await (await opened).close(deadline);
}

/**
 * Whether the process's database answers a trivial statement within `timeoutMs` (the readiness check): a
 * database that refuses, or does not answer, is "unavailable" without waiting for the pool's own timeouts.
 */
export async function probeDatabase(timeoutMs: number): Promise<"ok" | "unavailable"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"unavailable">((resolve) => {
    timer = setTimeout(() => resolve("unavailable"), timeoutMs);
  });
  const answered = getDb()
    .then((db) => db.execute(sql`select 1`))
    .then(
      () => "ok" as const,
      () => "unavailable" as const,
    );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
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

// The timeouts of a server pool (both drivers take node-postgres's options): a connection not made, or no
// connection free, within DATABASE_CONNECT_TIMEOUT_MS fails the request instead of queueing it for good; a
// statement is cancelled by the server after DATABASE_QUERY_TIMEOUT_MS (statement_timeout) and abandoned by
// the client a second later if the server does not answer at all (a connection silently gone). TCP
// keep-alive finds idle connections whose peer vanished.
function poolOptions(url: string) {
  const queryTimeout = setting("DATABASE_QUERY_TIMEOUT_MS");
  return {
    connectionString: url,
    connectionTimeoutMillis: setting("DATABASE_CONNECT_TIMEOUT_MS"),
    ...(queryTimeout > 0 ? { statement_timeout: queryTimeout, query_timeout: queryTimeout + 1000 } : {}),
    keepAlive: true,
  };
}

async function openPg(url: string): Promise<Database> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const pool = healingPool(new Pool({ ...poolOptions(url), max: setting("DATABASE_POOL_SIZE") }));
  return { db: drizzle({ client: pool }) as unknown as Db, driver: "pg", close: (deadline) => endPool(pool, deadline) };
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
  const pool = healingPool(new Pool(poolOptions(url)));
  return {
    db: drizzle({ client: pool }) as unknown as Db,
    driver: "neon",
    close: (deadline) => endPool(pool, deadline),
  };
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
