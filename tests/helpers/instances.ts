import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import path from "node:path";

// App instances as N `npm start` behind a load balancer are: separate `next start` processes of the one
// production build (built first when the sources changed), each with its own database pool, local runner
// and Chromium, sharing what the environment names: one PostgreSQL database (DATABASE_URL) and one file
// store (a shared DATA_DIR, or Vercel Blob).

export type Instance = {
  origin: string;
  pid: number;
  /** SIGTERM, or SIGKILL for a crash; resolves when the process has exited. */
  stop: (signal?: "SIGTERM" | "SIGKILL") => Promise<void>;
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
 * `next start` by default; `via: "npm start"` runs scripts/start.mjs as `npm start` does, in a process group
 * of its own, and `stop` signals the whole group (as a service manager or Ctrl-C does).
 */
export async function startInstance(
  env: Record<string, string>,
  options: { via?: "next start" | "npm start" } = {},
): Promise<Instance> {
  if (!built) {
    execFileSync("node", ["scripts/build-if-stale.mjs"], { stdio: "inherit" });
    built = true;
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const group = options.via === "npm start";
  // Next's CLI run by this Node directly (it serves in its own process): a SIGKILL kills the instance.
  const child: ChildProcess = spawn(
    process.execPath,
    group
      ? [path.join("scripts", "start.mjs")]
      : [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), APP_URL: origin, ...env },
      stdio: ["ignore", "ignore", "inherit"],
      detached: group,
    },
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
    pid: child.pid!,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) {
        if (group) process.kill(-child.pid!, signal);
        else child.kill(signal);
      }
      await exited;
    },
    exited,
  };
}
