// npm run test:pg — on a PostgreSQL server, the suites whose subject PostgreSQL changes: every integration
// suite and the end-to-end suites of database behaviour below. A fresh database is migrated once
// (tests/helpers/global-setup.ts) and each test file runs on a clone of it (tests/helpers/postgres-per-file.ts),
// two files at a time.
import { spawnSync } from "node:child_process";
import { withFreshDatabase } from "./fresh-database.mjs";

// End-to-end suites whose subject is the database shared by processes: row locks and leases between
// renderers and instances, a crash or restart mid-write, a stop with the pool still in use, rate limits and
// allowances across instances, analytics counted from concurrent beacons. The other end-to-end suites test the browser, the renderer and
// the files they make, which read and write the database through the same layer the integration suites
// already run here.
export const postgresEndToEnd = [
  "tests/e2e/instances.test.ts",
  "tests/e2e/export-recovery.test.ts",
  "tests/e2e/export-concurrency.test.ts",
  "tests/e2e/shutdown.test.ts",
  "tests/e2e/analytics.test.ts",
  "tests/e2e/database-faults.test.ts",
];

// Arguments name files (or folders) to run instead of the default selection; options pass through.
const args = process.argv.slice(2);
const files = args.some((arg) => !arg.startsWith("-"))
  ? []
  : ["--project", "integration", "--project", "e2e", "tests/integration", ...postgresEndToEnd];
const status = await withFreshDatabase("deckhand_test", (url) => {
  const result = spawnSync("npx", ["vitest", "run", ...files, ...args], {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: url },
  });
  return result.status ?? 1;
});
process.exit(status);
