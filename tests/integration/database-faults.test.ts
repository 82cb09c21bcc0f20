import net from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as live } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { faultOf } from "@/lib/core/faults";
import { adoptDatabase, type Database, openDatabase } from "@/lib/db/client";
import { type ApiResponse, call, createUser, type TestUser } from "../helpers/api";
import { setUpTestDatabase } from "../helpers/database";
import { createDeck, deckSource } from "../helpers/decks";

// A database that goes away (issue 34, items 8 and 9). With connections cut by pg_terminate_backend every
// request is answered, 200 or 503 with Retry-After (never a 500, never a hang), and the pool heals; a BEGIN
// on a cut connection gives its connection back; closing the pool keeps the stop's deadline. Readiness and
// requests fail fast on a database that refuses or never answers. The cuts need a PostgreSQL server (npm
// run test:pg; they cut only this file's own database); the unreachable database is a loopback port.

const url = process.env.TEST_DATABASE_URL;
let suiteDatabase: Database;

beforeAll(async () => {
  suiteDatabase = await setUpTestDatabase();
});

afterEach(() => adoptDatabase(suiteDatabase));

// A database opened with these settings (restored after); closed at the end of the file.
async function openWith(databaseUrl: string, env: Record<string, string>): Promise<Database> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    const database = await openDatabase(databaseUrl);
    afterAll(() => database.close(Date.now()).catch(() => {}));
    return database;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe.skipIf(!url)("cut connections (PostgreSQL)", () => {
  // A connection to this file's database that cuts every other connection to it.
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(() => admin.end());

  const cutAll = async () =>
    Number(
      (
        await admin.query(
          "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS cut FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).rows[0].cut,
    );

  it("gives the connection of a BEGIN that met a cut back to the pool, so a pool of one keeps serving", async () => {
    const database = await openWith(url!, { DATABASE_POOL_SIZE: "1" });
    const backend = async () =>
      Number(
        ((await database.db.execute(sql`SELECT pg_backend_pid() AS pid`)) as { rows: { pid: number }[] }).rows[0]!.pid,
      );
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round++) {
      const pid = await backend();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      // The pool has not seen the cut yet: the transaction gets the cut connection and sends BEGIN on it.
      outcomes.push(
        await database.db
          .transaction(async (tx) => tx.execute(sql`SELECT 1`))
          .then(
            () => "committed",
            (error: unknown) => faultOf(error)?.kind ?? String(error),
          ),
      );
    }
    // Each either ran (its BEGIN tried again on a fresh connection) or failed on the cut; and the one
    // connection of the pool is still there for the next statement.
    for (const outcome of outcomes) expect(["committed", "connection"]).toContain(outcome);
    expect(await backend()).toBeGreaterThan(0);
  });

  it("answers every request 200 or 503 with Retry-After while connections are cut, none hangs, and heals after", async () => {
    adoptDatabase(await openWith(url!, { DATABASE_POOL_SIZE: "3" }));
    const user = await createUser();
    const deck = await createDeck(user);
    const answers: ApiResponse[] = [];
    let cutting = true;
    let n = 0;
    const request = (i: number) =>
      i % 2
        ? call("GET", `/decks/${deck.id}`, { key: user.key })
        : call("PUT", `/decks/${deck.id}/content`, { key: user.key, body: { source: deckSource([`Cut ${++n}`]) } });
    const clients = Array.from({ length: 6 }, async (_, i) => {
      while (cutting) answers.push(await request(i));
    });
    let cut = 0;
    for (let round = 0; round < 15; round++) {
      // Let requests reach the database between the cuts.
      const before = answers.length;
      await expect.poll(() => answers.length, { interval: 20 }).toBeGreaterThan(before);
      cut += await cutAll();
    }
    cutting = false;
    await Promise.all(clients);

    expect(cut).toBeGreaterThan(0);
    const refused = answers.filter((res) => res.status !== 200);
    for (const res of refused) {
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 503, code: "service_unavailable" });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(answers.length - refused.length).toBeGreaterThan(0);
    const after = await Promise.all(Array.from({ length: 6 }, (_, i) => request(i)));
    expect(after.map((res) => res.status)).toEqual(Array(6).fill(200));
    expect((await ready()).status).toBe(200);
  });

  it("closes a pool with a connection still in use by the deadline, saying so", async () => {
    const database = await openWith(url!, {});
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inUse!: () => void;
    const isInUse = new Promise<void>((resolve) => (inUse = resolve));
    const transaction = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        inUse();
        await held;
      })
      .catch(() => {});
    await isInUse;
    await expect(database.close(Date.now() + 200)).rejects.toThrow(/did not close by the deadline: 1 connection/);
    finish();
    await transaction;
  });
});

describe("a database that cannot be reached", () => {
  // A loopback port nothing listens on, and one that accepts connections and never says a word.
  let closedPort: number;
  let silent: net.Server;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    const probe = net.createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    silent = net.createServer((socket) => sockets.push(socket)).listen(0, "127.0.0.1");
    await new Promise((resolve) => silent.once("listening", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
  });

  const unreachable = (port: number) =>
    openWith(`postgres://deckhand@127.0.0.1:${port}/deckhand`, {
      DATABASE_CONNECT_TIMEOUT_MS: "500",
      // The Neon driver's runs reach any address through their proxy; a plain pool reaches it itself.
      DATABASE_DRIVER: "pg",
    });

  it.each([
    ["refuses connections", () => closedPort],
    ["never answers", () => (silent.address() as net.AddressInfo).port],
  ])("is reported by readiness (503, Retry-After) while liveness stays 200, when it %s", async (_, port) => {
    adoptDatabase(await unreachable(port()));
    const answer = await ready();
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await answer.json()).toMatchObject({ status: "unavailable", database: "unavailable" });
    expect(live().status).toBe(200);
  });

  it("fails a request fast with 503 when it never answers, instead of waiting for a connection for good", async () => {
    // The key was read (and is trusted for a while) from the suite's database; the deck read needs this one.
    expect((await call("GET", "/decks", { key: user.key })).status).toBe(200);
    adoptDatabase(await unreachable((silent.address() as net.AddressInfo).port));
    const res = await call("GET", "/decks/00000000-0000-4000-8000-000000000000", { key: user.key });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("service_unavailable");
    expect(res.headers.get("retry-after")).toBe("2");
  });
});
