import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// A production server (`next start`, built first when the sources changed) on a loopback port with a
// fresh embedded database of its own. Used by the browser app's end-to-end tests and the benchmarks.

export type NextServer = { origin: string; pid: number; stop: () => Promise<void> };
type RunScript = (args: string[]) => string;

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
    /** Runs project scripts (tsx) on the server's database before it starts (one process owns PGlite). */
    prepare?: (run: RunScript) => void;
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
  // Scripts load server-only modules (the database): they run with the condition Next's server uses.
  const script = (args: string[]) =>
    execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", ...args], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  if (env.DATABASE_URL) script(["scripts/migrate.ts"]);
  options.prepare?.(script);

  const server = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    pid: server.pid!,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
