import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Three projects, one per kind of test (npm run test:unit, test:integration, test:e2e; npm test runs all):
//   unit         pure functions and modules in process: no database, browser, server or built assets
//   integration  the app's layers in process on a database of the suite's own (PGlite, or a PostgreSQL
//                database cloned for the file: tests/helpers/postgres-per-file.ts)
//   e2e          real Chromium, real `next start` servers and renderers, real child processes
// Files run two at a time (one per core); on PostgreSQL each file has a database of its own, so no file
// takes another's export jobs.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Tests run as the server does: modules marked server-only (the database, secrets) load here.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    pool: "forks",
    // vitest's default is one worker fewer than the cores: one at a time on a 2-core machine.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // Files the app writes (rendered images, the signing secret) go to a folder of this run, not ./.data.
    env: {
      DATA_DIR: path.join(os.tmpdir(), `deckhand-test-${process.pid}`),
      LOG_REQUESTS: "0",
      // Warnings and errors only: a run's output is the tests' own (a suite that reads log lines sets its level).
      LOG_LEVEL: "warn",
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
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/global-setup.ts"],
          setupFiles: ["tests/helpers/postgres-per-file.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/helpers/global-setup.ts"],
          setupFiles: ["tests/helpers/postgres-per-file.ts"],
        },
      },
    ],
  },
});
