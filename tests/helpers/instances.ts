import { type ChildProcess, execFileSync, spawn, type StdioOptions } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import path from "node:path";
import { seedDataDir } from "./pglite-template";

// App instances as N `npm start` behind a load balancer are: separate `next start` processes of the one
// production build (built first when the sources changed), each with its own database pool, local runner
// and Chromium, sharing what the environment names: one PostgreSQL database (DATABASE_URL) and one file
// store (a shared DATA_DIR, or Vercel Blob).

export type Instance = {
  origin: string;
  port: number;
  pid: number;
  /**
   * SIGTERM, SIGINT, or SIGKILL for a crash, to the process group for `npm start` (as a service manager or
   * Ctrl-C does) or to the pid alone (as `docker stop` does); resolves when the process has exited.
   */
  stop: (signal?: "SIGTERM" | "SIGINT" | "SIGKILL", to?: "group" | "pid") => Promise<void>;
  /** The exit code and signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
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

let built = false;

/**
 * `next start` by default; `via: "npm start"` runs `npm start` itself, in a process group of its own, and
 * `stop` signals the whole group unless told to signal npm's pid alone. On a free port, or the one given.
 */
export async function startInstance(
  env: Record<string, string>,
  options: { via?: "next start" | "npm start"; port?: number } = {},
): Promise<Instance> {
  if (!built) {
    execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
    built = true;
  }
  // A data folder without a database yet gets the run's migrated one (the server would make the same).
  if (env.DATA_DIR && !env.DATABASE_URL) seedDataDir(env.DATA_DIR);
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const group = options.via === "npm start";
  const settings: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: origin,
    ...env,
  };
  const stdio: StdioOptions = ["ignore", "ignore", "inherit"];
  // `npm start` as a person or a service runs it (npm asks no registry: the update check is off); or Next's
  // CLI run by this Node directly (it serves in its own process: a SIGKILL kills the instance).
  const child: ChildProcess = group
    ? spawn("npm", ["start"], { env: { ...settings, npm_config_update_notifier: "false" }, stdio, detached: true })
    : spawn(
        process.execPath,
        [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
        { env: settings, stdio },
      );
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  let gone = false;
  void exited.then(() => (gone = true));
  // Listening once its health check answers (instrumentation has run by then: the local runner is started).
  for (;;) {
    if (gone) throw new Error(`the instance on port ${port} exited before it answered (code ${child.exitCode})`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    port,
    pid: child.pid!,
    stop: async (signal = "SIGTERM", to = group ? "group" : "pid") => {
      if (child.exitCode === null && child.signalCode === null) {
        if (group && to === "group") process.kill(-child.pid!, signal);
        else child.kill(signal);
      }
      await exited;
    },
    exited,
  };
}
