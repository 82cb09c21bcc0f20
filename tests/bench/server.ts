import { startNextServer } from "../helpers/next-server";

// The production server the benchmarks measure (tests/helpers/next-server.ts) with one API key.

export type BenchServer = {
  origin: string;
  api: string;
  key: string;
  /** The `next start` process: its memory (and its Chromium's) is sampled by the export benchmark. */
  pid: number;
  stop: () => Promise<void>;
};

// The settings of every benchmarked server (a second instance gets the same, on the same database).
export const benchEnv = {
  // The embedded database by default; BENCH_DATABASE_URL measures against a PostgreSQL server instead.
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "",
  VERSION_EDIT_ALLOWANCE: "1000000",
  // One key sends every request; the limiter still counts each one (one upsert), it just never says no.
  RATE_LIMIT_PER_MINUTE: "100000000",
  RATE_LIMIT_SLOW_PER_MINUTE: "100000000",
  // The brand benchmark serves its fixture sites on localhost.
  FETCH_ALLOW_HOSTS: "localhost",
};

export async function startBenchServer(): Promise<BenchServer> {
  const server = await startNextServer({ env: benchEnv, withApiKey: true });
  return { ...server, api: `${server.origin}/api/v1` };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export type BenchRow = { label: string; n: number; median: number; p95: number; unit?: string };

export function printTable(title: string, rows: BenchRow[]) {
  console.log(`\n${title}\n`);
  console.log("| measure | n | median | p95 |\n|---|---|---|---|");
  for (const r of rows) {
    const unit = r.unit ?? "ms";
    console.log(`| ${r.label} | ${r.n} | ${r.median.toFixed(2)} ${unit} | ${r.p95.toFixed(2)} ${unit} |`);
  }
}
