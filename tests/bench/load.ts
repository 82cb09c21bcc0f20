import autocannon from "autocannon";
import { twentySlideModule } from "./api";
import type { BenchServer } from "./server";

// Throughput and latency under load (autocannon, 50 connections, 30 s) against `next start` on the
// embedded database: a mixed workload of reads, content writes and version reads, then a bare route
// handler that returns a constant, so the ratio to the framework's own ceiling is visible.

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DURATION = Number(process.env.BENCH_DURATION || 30);
const DECKS = 20;

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
  const random = mulberry32(42);
  const apiPath = new URL(server.api).pathname;

  const mixed = await run({
    url: server.origin,
    connections: CONNECTIONS,
    duration: DURATION,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          // autocannon writes Content-Length into the headers object it is given: each request gets its own,
          // or a GET after a PUT would announce a body it does not send.
          req = { ...req, headers: { ...headers } };
          const roll = random();
          const deck = deckIds[Math.floor(random() * deckIds.length)]!;
          // 70% get_deck / list_decks, 20% PUT /content, 10% version reads.
          if (roll < 0.35) return { ...req, method: "GET", path: `${apiPath}/decks/${deck}`, body: undefined };
          if (roll < 0.7) return { ...req, method: "GET", path: `${apiPath}/decks`, body: undefined };
          if (roll < 0.9) {
            const body = bodies[Math.floor(random() * bodies.length)]!;
            return { ...req, method: "PUT", path: `${apiPath}/decks/${deck}/content`, body };
          }
          if (roll < 0.95) return { ...req, method: "GET", path: `${apiPath}/decks/${deck}/versions`, body: undefined };
          return { ...req, method: "GET", path: `${apiPath}/decks/${deck}/versions/1`, body: undefined };
        },
      },
    ],
  });
  const bare = await run({ url: `${server.origin}/api/health`, connections: CONNECTIONS, duration: DURATION });

  const row = (label: string, r: Result) => {
    const errors = r.errors + r.timeouts + r.non2xx;
    return `| ${label} | ${r.requests.total} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} ms | ${r.latency.p99} ms | ${errors} |`;
  };
  const database = process.env.BENCH_DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  return [
    `${database}; ${CONNECTIONS} connections, ${DURATION} s each; ${DECKS} decks of 20 slides; errors = failed + timed out + non-2xx`,
    "",
    "| workload | requests | req/s | p50 | p99 | errors |",
    "|---|---|---|---|---|---|",
    row("mixed: 70% get_deck/list_decks, 20% PUT /content, 10% version reads", mixed),
    row("bare route handler (GET /api/health, a constant)", bare),
    "",
    `mixed throughput is ${((mixed.requests.average / bare.requests.average) * 100).toFixed(1)}% of the bare handler's`,
  ].join("\n");
}
