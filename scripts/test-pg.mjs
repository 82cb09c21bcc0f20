// npm run test:pg — on a PostgreSQL server, the suites whose subject PostgreSQL changes: the integration
// suites but those about something else and the end-to-end suites of database behaviour (scripts/test-suites.mjs
// lists both). A fresh database is migrated once (tests/helpers/global-setup.ts) and each test file runs on a
// clone of it (tests/helpers/postgres-per-file.ts), two files at a time.
import { spawnSync } from "node:child_process";
import { withFreshDatabase } from "./fresh-database.mjs";
import { postgresEndToEnd, postgresIntegration } from "./test-suites.mjs";

// Arguments name files (or folders) to run instead of the default selection; options pass through.
const args = process.argv.slice(2);
const files = args.some((arg) => !arg.startsWith("-"))
  ? []
  : ["--project", "integration", "--project", "e2e", ...postgresIntegration(), ...postgresEndToEnd];
const status = await withFreshDatabase("deckhand_test", (url) => {
  const result = spawnSync("npx", ["vitest", "run", ...files, ...args], {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: url },
  });
  return result.status ?? 1;
});
process.exit(status);
