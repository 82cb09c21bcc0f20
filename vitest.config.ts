import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Tests run as the server does: modules marked server-only (the database, secrets) load here.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    // On one shared PostgreSQL database the export runners of parallel files would take each other's work.
    fileParallelism: !process.env.TEST_DATABASE_URL,
    // Files the app writes (rendered images, the signing secret) go to a folder of this run, not ./.data.
    env: {
      DATA_DIR: path.join(os.tmpdir(), `deckhand-test-${process.pid}`),
      LOG_REQUESTS: "0",
      // Suites make hundreds of requests with one key; the rate-limit suite sets its own limits.
      RATE_LIMIT_PER_MINUTE: "100000",
      RATE_LIMIT_SLOW_PER_MINUTE: "100000",
      // Render deadlines are wall time, and two test files at once keep both cores busy: a niced renderer
      // would wait behind them. tests/e2e/renderer-priority.test.ts checks the niced renderer itself.
      RENDERER_NICENESS: "0",
    },
    // End-to-end tests wait for conditions with expect.poll (never fixed sleeps); on a busy machine a page
    // can take seconds to get there.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
