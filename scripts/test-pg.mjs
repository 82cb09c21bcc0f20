// npm run test:pg — the same suite on a PostgreSQL server: a fresh database (scripts/fresh-database.mjs),
// vitest run against it, dropped afterwards.
import { spawnSync } from "node:child_process";
import { withFreshDatabase } from "./fresh-database.mjs";

const status = await withFreshDatabase("deckhand_test", (url) => {
  const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: url },
  });
  return result.status ?? 1;
});
process.exit(status);
