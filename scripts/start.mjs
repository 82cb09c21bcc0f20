// npm start — builds when needed, then serves on PORT (default 3000).
import { spawn } from "node:child_process";
import { buildIfStale } from "./build-if-stale.mjs";

buildIfStale();
const port = process.env.PORT || "3000";
const server = spawn("npx", ["next", "start", "-p", port], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
