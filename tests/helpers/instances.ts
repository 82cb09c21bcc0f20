import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";

// App instances as separate processes (tests/helpers/instance-main.ts under tsx), each with its own
// database pool, local runner and Chromium, sharing what the environment names: one PostgreSQL database
// (DATABASE_URL) and one file store (a shared DATA_DIR, or Vercel Blob). What N `npm start` processes
// behind a load balancer are, without a Next build.

export type Instance = {
  origin: string;
  pid: number;
  /** SIGTERM, or SIGKILL for a crash; resolves when the process has exited. */
  stop: (signal?: "SIGTERM" | "SIGKILL") => Promise<void>;
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

export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  // node with tsx's loader (not the tsx CLI, which runs a second process): a SIGKILL kills the instance.
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "tests/helpers/instance-main.ts"],
    {
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = once(child, "exit");
  const origin = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening (http:\/\/\S+)$/m.exec(output);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) => reject(new Error(`the instance exited (${code}) before listening:\n${output}`)));
  });
  child.stdout!.resume();
  return {
    origin,
    pid: child.pid!,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
