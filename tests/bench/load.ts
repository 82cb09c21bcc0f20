import autocannon from "autocannon";
import { twentySlideModule } from "./api";
import { type NextServer, startNextServer } from "../helpers/next-server";
import { type BenchServer, benchEnv } from "./server";

// Throughput and latency under load (autocannon, 50 connections, 30 s each) against `next start` on the
// embedded database (or BENCH_DATABASE_URL's PostgreSQL): read-only, write-heavy and mixed workloads,
// then a bare route handler that returns a constant, so the ratio to the framework's own ceiling is visible.
// BENCH_INSTANCES=2 (with BENCH_DATABASE_URL: instances share a PostgreSQL database) runs the mixed
// workload again against two `next start` instances, the connections split evenly between them (one
// autocannon per instance, at once: requests and req/s are summed, p50/p99 are the worse instance's).

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DURATION = Number(process.env.BENCH_DURATION || 30);
const DECKS = 20;
const INSTANCES = Number(process.env.BENCH_INSTANCES || 1);

// A seeded generator, so every run sends the same sequence of requests.
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Result = autocannon.Result;

function run(options: autocannon.Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

export async function benchLoad(server: BenchServer): Promise<string> {
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const deckIds: string[] = [];
  for (let i = 0; i < DECKS; i++) {
    const deck = await (
      await fetch(`${server.api}/decks`, { method: "POST", headers, body: JSON.stringify({ title: `Load ${i}` }) })
    ).json();
    const put = await fetch(`${server.api}/decks/${deck.id}/content`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ source: twentySlideModule(i) }),
    });
    if (!put.ok) throw new Error(`seeding failed: ${put.status}`);
    deckIds.push(deck.id);
  }
  // Content bodies prepared up front, so the client spends no time building them.
  const bodies = Array.from({ length: 8 }, (_, i) => JSON.stringify({ source: twentySlideModule(100 + i) }));
  const apiPath = new URL(server.api).pathname;

  // What each request of a workload is: read-only (get_deck, list_decks), write-heavy (PUT /content) or
  // mixed (70% get_deck/list_decks, 20% PUT /content, 10% version reads).
  type Workload = "read" | "write" | "mixed";
  const workloadAgainst = (workload: Workload, origin: string, connections: number, seed: number): Promise<Result> => {
    const random = mulberry32(seed);
    return run({
      url: origin,
      connections,
      duration: DURATION,
      headers,
      requests: [
        {
          setupRequest: (req) => {
            // autocannon writes Content-Length into the headers object it is given: each request gets its own,
            // or a GET after a PUT would announce a body it does not send.
            req = { ...req, headers: { ...headers } };
            const roll = workload === "read" ? random() * 0.7 : workload === "write" ? 0.8 : random();
            const deck = deckIds[Math.floor(random() * deckIds.length)]!;
            if (roll < 0.35) return { ...req, method: "GET", path: `${apiPath}/decks/${deck}`, body: undefined };
            if (roll < 0.7) return { ...req, method: "GET", path: `${apiPath}/decks`, body: undefined };
            if (roll < 0.9) {
              const body = bodies[Math.floor(random() * bodies.length)]!;
              return { ...req, method: "PUT", path: `${apiPath}/decks/${deck}/content`, body };
            }
            if (roll < 0.95)
              return { ...req, method: "GET", path: `${apiPath}/decks/${deck}/versions`, body: undefined };
            return { ...req, method: "GET", path: `${apiPath}/decks/${deck}/versions/1`, body: undefined };
          },
        },
      ],
    });
  };
  const read = await workloadAgainst("read", server.origin, CONNECTIONS, 41);
  const write = await workloadAgainst("write", server.origin, CONNECTIONS, 43);
  const mixed = await workloadAgainst("mixed", server.origin, CONNECTIONS, 42);
  const bare = await run({ url: `${server.origin}/api/health`, connections: CONNECTIONS, duration: DURATION });

  let spread: Combined | null = null;
  if (INSTANCES > 1) {
    if (!process.env.BENCH_DATABASE_URL)
      throw new Error("BENCH_INSTANCES needs BENCH_DATABASE_URL (a shared database)");
    const others: NextServer[] = [];
    try {
      for (let i = 1; i < INSTANCES; i++) others.push(await startNextServer({ env: benchEnv }));
      const origins = [server.origin, ...others.map((other) => other.origin)];
      const share = Math.floor(CONNECTIONS / origins.length);
      spread = combine(await Promise.all(origins.map((origin, i) => workloadAgainst("mixed", origin, share, 42 + i))));
    } finally {
      await Promise.all(others.map((other) => other.stop()));
    }
  }

  const ofBare = (r: Result | Combined) => {
    const perSecond = "requests" in r ? r.requests.average : r.perSecond;
    return `${((perSecond / bare.requests.average) * 100).toFixed(1)}%`;
  };
  const row = (label: string, r: Result | Combined) => {
    const c = "requests" in r ? combine([r]) : r;
    const errors = c.timeouts + c.non2xx + c.failed;
    return `| ${label} | ${c.total} | ${c.perSecond.toFixed(0)} | ${c.p50} ms | ${c.p99} ms | ${errors} (${c.timeouts} timed out, ${c.non2xx} non-2xx) | ${ofBare(c)} |`;
  };
  const database = process.env.BENCH_DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  return [
    `${database}; ${CONNECTIONS} connections, ${DURATION} s each; ${DECKS} decks of 20 slides; errors = failed + timed out + non-2xx`,
    "",
    "| workload | requests | req/s | p50 | p99 | errors | ÷ bare |",
    "|---|---|---|---|---|---|---|",
    row("read-only: get_deck, list_decks", read),
    row("write-heavy: PUT /content", write),
    row("mixed: 70% get_deck/list_decks, 20% PUT /content, 10% version reads", mixed),
    ...(spread ? [row(`the same mixed workload on ${INSTANCES} instances, one database`, spread)] : []),
    row("bare route handler (GET /api/health, a constant)", bare),
  ].join("\n");
}

type Combined = {
  total: number;
  perSecond: number;
  p50: number;
  p99: number;
  timeouts: number;
  non2xx: number;
  failed: number;
};

// Runs against several instances at once: counts add up, latency is the slowest instance's.
function combine(results: Result[]): Combined {
  return {
    total: results.reduce((sum, r) => sum + r.requests.total, 0),
    perSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    // autocannon counts a timeout among its errors too.
    failed: results.reduce((sum, r) => sum + r.errors - r.timeouts, 0),
  };
}
