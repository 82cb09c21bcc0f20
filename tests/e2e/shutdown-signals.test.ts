import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startInstance } from "../helpers/instances";
import { alive, processTree } from "../helpers/processes";

// `npm start` stops however it is signalled (issue 34, item 10). SIGTERM or SIGINT to npm's pid alone (as
// `docker stop` signals a container whose command is `npm start`) or to its process group (systemd,
// Ctrl-C) stops the server gracefully before npm exits: npm exits 0, no process of its tree is left, and
// the port is free for the next `npm start` on it, which serves. npm killed outright (SIGKILL) leaves no
// server behind either. Signals and processes only, so on the embedded database alone.

const folders: string[] = [];
const trees: number[][] = [];

afterAll(() => {
  // Whatever a failed run left serving (the processes these tests started, by pid).
  for (const pid of trees.flat().filter(alive)) process.kill(pid, "SIGKILL");
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

// Whether the next `npm start` could listen on the port now (Next.js listens on every address, so a server
// still there refuses the loopback address too).
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

const deliveries = [
  { signal: "SIGTERM", to: "pid" },
  { signal: "SIGINT", to: "pid" },
  { signal: "SIGINT", to: "group" },
  { signal: "SIGKILL", to: "pid" },
] as const;

describe("stopping `npm start`", () => {
  it("stops gracefully however it is signalled, leaves no process and frees its port for the next start", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-signals-"));
    folders.push(dataDir);
    let port: number | undefined;
    for (const { signal, to } of deliveries) {
      const server = await startInstance({ DATA_DIR: dataDir, LOG_REQUESTS: "0" }, { via: "npm start", port });
      port = server.port;
      const tree = processTree(server.pid);
      trees.push(tree);
      // npm, the start script and next-server (no shell between npm and the script: it is exec'd).
      expect(tree.length, `${signal} to the ${to}`).toBeGreaterThanOrEqual(3);

      await server.stop(signal, to);
      const exited = await server.exited;
      if (signal === "SIGKILL") {
        // Nobody waits for the server now: the start script notices that npm is gone and stops it.
        expect(exited.signal).toBe("SIGKILL");
        await expect.poll(() => tree.filter(alive), { interval: 50 }).toEqual([]);
        await expect.poll(() => portFree(port!), { interval: 50 }).toBe(true);
      } else {
        // npm waited for the server's graceful stop, whose exit code it passes on.
        expect(exited, `${signal} to the ${to}`).toEqual({ code: 0, signal: null });
        expect(await portFree(port), `${signal} to the ${to}`).toBe(true);
        await expect.poll(() => tree.filter(alive), { interval: 50 }).toEqual([]);
      }
    }
    // And it starts again on the same port once more after the last stop.
    const last = await startInstance({ DATA_DIR: dataDir, LOG_REQUESTS: "0" }, { via: "npm start", port });
    trees.push(processTree(last.pid));
    expect((await fetch(`${last.origin}/api/health`)).status).toBe(200);
    await last.stop("SIGTERM", "pid");
    expect(await last.exited).toEqual({ code: 0, signal: null });
  }, 240_000);
});
