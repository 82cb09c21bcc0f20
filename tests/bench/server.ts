import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// A production server (`next start`) on a loopback port with a fresh embedded database and one API key.

export type BenchServer = { origin: string; api: string; key: string; stop: () => Promise<void> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startBenchServer(): Promise<BenchServer> {
  execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-bench-"));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    // The embedded database by default; BENCH_DATABASE_URL measures against a PostgreSQL server instead.
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "",
    VERSION_EDIT_ALLOWANCE: "1000000",
    // One key sends every request; the limiter still counts each one (one upsert), it just never says no.
    RATE_LIMIT_PER_MINUTE: "100000000",
    APP_URL: origin,
    PORT: String(port),
    // The brand benchmark serves its fixture sites on localhost.
    FETCH_ALLOW_HOSTS: "localhost",
  };
  if (env.DATABASE_URL) execFileSync("node_modules/.bin/tsx", ["scripts/migrate.ts"], { env, stdio: "ignore" });
  const key = execFileSync(
    "node_modules/.bin/tsx",
    ["scripts/keys.ts", "create", "--email", `bench-${Date.now()}@example.test`],
    {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    },
  )
    .trim()
    .split("\n")
    .at(-1)!;
  const server = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const api = `${origin}/api/v1`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${api}/instructions`, { headers: { authorization: `Bearer ${key}` } })).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    api,
    key,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
