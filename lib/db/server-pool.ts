import { isConnectionFault } from "@/lib/core/faults";
import { logger } from "@/lib/core/log";

// What the pools of a server database (node-postgres, and the Neon driver, which bundles the same pg-pool)
// need to heal when connections are cut: PostgreSQL restarted, a failover, pg_terminate_backend, a proxy's
// idle timeout (issue 34, item 8).
//
// - drizzle's `transaction()` runs BEGIN before the try/finally that releases its client (drizzle-orm 0.45,
//   node-postgres/session.js and neon-serverless/session.js). A BEGIN on a cut connection therefore never gave
//   the client back: after DATABASE_POOL_SIZE of them every request waited for a connection for good. The
//   clients handed out here release themselves when their BEGIN fails, and when it failed on a lost
//   connection they run it once more on a fresh one (nothing has run yet, so nothing can run twice).
// - A client whose connection failed is destroyed when released, not put back: pg-pool does that itself
//   only when the driver marked it unusable, not after a query timeout.
// - A connection cut while idle makes the pool emit "error", and one cut while checked out makes its client
//   emit "error"; pg-pool listens to neither, so each was an uncaught exception. Both are listened to here:
//   the statement running on it fails instead, and the pool makes a new connection when one is needed.

type Client = {
  query(config: unknown, values?: unknown): Promise<unknown>;
  release(error?: Error | boolean): void;
  on(event: "error", listener: (error: Error) => void): unknown;
};

type Pool = {
  connect(): Promise<Client>;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "connect", listener: (client: Client) => void): unknown;
  end(): Promise<void>;
  totalCount: number;
  idleCount: number;
};

/** Makes `pool` heal as described above; returns it. */
export function healingPool<P extends Pool>(pool: P): P {
  pool.on("error", (error) => {
    logger("database").warn("idle_connection_lost", { error });
  });
  pool.on("connect", (client) => client.on("error", () => {}));
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<Client>;
  // pg-pool's own `query` calls connect with a callback and releases with the error itself: left as it is.
  // drizzle calls it without one, for a transaction.
  pool.connect = ((callback?: unknown) =>
    callback
      ? connect(callback)
      : connect().then((client) => transactionClient(client, () => connect()))) as P["connect"];
  return pool;
}

const beginStatement = /^\s*(begin|start\s+transaction)\b/i;

function transactionClient(first: Client, connect: () => Promise<Client>): Client {
  let client = first;
  let released = false;
  let broken: Error | undefined;
  let statements = 0;

  const release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.release(error || broken);
  };
  const run = async (config: unknown, values?: unknown) => {
    try {
      return await client.query(config, values);
    } catch (error) {
      if (isConnectionFault(error)) broken = error as Error;
      throw error;
    }
  };
  const query = async (config: unknown, values?: unknown) => {
    if (statements++ > 0 || !beginStatement.test(textOf(config))) return run(config, values);
    try {
      return await run(config, values);
    } catch (error) {
      release();
      if (!isConnectionFault(error)) throw error;
      client = await connect();
      released = false;
      broken = undefined;
      try {
        return await run(config, values);
      } catch (again) {
        release();
        throw again;
      }
    }
  };
  // Everything else (what drizzle or a caller may read off a client) is the current connection's own.
  return new Proxy(first, {
    get(_, property) {
      if (property === "query") return query;
      if (property === "release") return release;
      const value = Reflect.get(client, property) as unknown;
      return typeof value === "function" ? value.bind(client) : value;
    },
  });
}

function textOf(config: unknown): string {
  if (typeof config === "string") return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === "string" ? text : "";
}

/**
 * Ends the pool: waits for the connections in use to be released, until `deadline` (the graceful stop's);
 * past it, throws, naming how many were still in use (the process exits with them open).
 */
export async function endPool(pool: Pool, deadline?: number): Promise<void> {
  const ended = pool.end();
  if (deadline === undefined) return ended;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now()));
  });
  const outcome = await Promise.race([ended.then(() => "ended" as const), late]);
  clearTimeout(timer);
  if (outcome === "late") {
    throw new Error(
      `The database pool did not close by the deadline: ${pool.totalCount - pool.idleCount} connection(s) still in use.`,
    );
  }
}
