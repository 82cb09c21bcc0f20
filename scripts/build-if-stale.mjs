// Runs `npm run build` (the player, then Next.js) when there is no build yet or a source is newer than it.
// Used by `npm start`, the end-to-end tests' servers and the benchmarks. One process builds at a time (a lock
// folder beside the build): test files starting servers at once wait for the first one's build and use it.
// With NO_REBUILD=1 (.ci/run, which builds once before the tests) a missing or stale build is an error
// instead: one build per CI run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const sources = [
  "app",
  "lib",
  "components",
  "server",
  "public",
  "drizzle",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package.json",
];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const lock = path.join(root, ".next-build.lock");
const pause = new Int32Array(new SharedArrayBuffer(4));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

// Holds the lock while `work` runs; waits while another live process holds it. The lock is a folder
// holding its owner's pid, put in place by one rename, so it never exists without one.
function withBuildLock(work) {
  const mine = fs.mkdtempSync(`${lock}-`);
  fs.writeFileSync(path.join(mine, "pid"), String(process.pid));
  for (;;) {
    try {
      fs.renameSync(mine, lock);
      break;
    } catch (error) {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      let holder;
      try {
        holder = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
      } catch {
        continue; // released meanwhile
      }
      if (!alive(holder)) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function buildIfStale() {
  withBuildLock(buildUnlessFresh);
}

function buildUnlessFresh() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const stale = sources.filter((source) => newestMtime(source) > builtAt);
  if (builtAt > 0 && stale.length === 0) return;
  if (process.env.NO_REBUILD === "1") {
    console.error(
      builtAt === 0
        ? "NO_REBUILD=1 but there is no build: run `npm run build` first"
        : `NO_REBUILD=1 but ${stale.join(", ")} changed after the build (something wrote to the sources)`,
    );
    process.exit(1);
  }
  console.log(builtAt === 0 ? "No build yet: building…" : "Sources changed since the last build: rebuilding…");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.argv[1] === new URL(import.meta.url).pathname) buildIfStale();
