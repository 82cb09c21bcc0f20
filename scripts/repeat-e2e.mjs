// npm run test:e2e:repeat -- [--times N] [--pg] [vitest filters…] — runs the end-to-end suites N times
// (default 5) to find flaky tests before they land: on PGlite, or with --pg on a fresh PostgreSQL database
// per run (scripts/test-pg.mjs, scripts/test-suites.mjs). Every run goes to the end; the tally names the runs that failed and the
// exit code is non-zero when any did. Extra arguments narrow the run (a file, `-t "test name"`).
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
let times = 5;
let postgres = false;
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--times") times = Number(args[++i]);
  else if (args[i] === "--pg") postgres = true;
  else filters.push(args[i]);
}
if (!Number.isInteger(times) || times < 1) {
  console.error("--times needs a whole number of runs, 1 or more");
  process.exit(2);
}

const suite = filters.some((filter) => !filter.startsWith("-")) ? filters : ["tests/e2e", ...filters];
const command = postgres ? ["node", ["scripts/test-pg.mjs", ...suite]] : ["npx", ["vitest", "run", ...suite]];
const results = [];
for (let run = 1; run <= times; run++) {
  const started = Date.now();
  console.log(`\n== e2e run ${run} of ${times} on ${postgres ? "PostgreSQL" : "PGlite"}`);
  const { status } = spawnSync(command[0], command[1], { stdio: "inherit", env: process.env });
  results.push({ run, passed: status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log(`\n== ${times} runs on ${postgres ? "PostgreSQL" : "PGlite"}`);
for (const { run, passed, seconds } of results)
  console.log(`run ${run}: ${passed ? "passed" : "FAILED"} in ${seconds} s`);
const failed = results.filter((result) => !result.passed).length;
console.log(failed === 0 ? "no flakes seen" : `${failed} of ${times} runs failed`);
process.exit(failed === 0 ? 0 : 1);
