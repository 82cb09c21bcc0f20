import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    // On one shared PostgreSQL database the export runners of parallel files would take each other's work.
    fileParallelism: !process.env.TEST_DATABASE_URL,
    // Files the app writes (rendered images, the signing secret) go to a folder of this run, not ./.data.
    env: { DATA_DIR: path.join(os.tmpdir(), `deckhand-test-${process.pid}`) },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
