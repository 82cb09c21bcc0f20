// npm start — builds when needed, then serves on PORT (default 3000). The server stops gracefully on
// SIGTERM and SIGINT (lib/core/shutdown.ts): the signal is passed on and this process exits with it.
//
// npm passes SIGTERM and SIGINT only to the shell it runs a script in, and a shell such as dash dies of
// them without passing them on, leaving the server running. So the script is `exec node scripts/start.mjs`:
// npm's child is this process, npm waits for it, and it waits for the server. Should the process that
// started this one die anyway (npm killed with SIGKILL), the server is stopped as by SIGTERM.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfStale } from "./build-if-stale.mjs";

buildIfStale();
const port = process.env.PORT || "3000";
// Next's CLI in this Node, without npx between them: one process to signal, one exit code to pass on.
const server = spawn(
  process.execPath,
  [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", port],
  {
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  server.kill("SIGTERM");
}, 250);
orphaned.unref();
