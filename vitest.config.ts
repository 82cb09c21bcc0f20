import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    // Files the app writes (rendered images, the signing secret) go to a folder of this run, not ./.data.
    env: { DATA_DIR: path.join(os.tmpdir(), `deckhand-test-${process.pid}`) },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
