// npm run test:neon — the integration suites of what the driver does (scripts/test-suites.mjs) through the Neon driver (@neondatabase/serverless over
// WebSockets): a fresh database on the local PostgreSQL server (as test:pg), reached through a
// WebSocket-to-Postgres proxy on loopback (tests/helpers/neon-ws-proxy.mjs), the way Neon documents local
// development. Arguments name files to run instead of the integration suites; options pass through.
import { spawn } from "node:child_process";
import { startNeonWsProxy } from "../tests/helpers/neon-ws-proxy.mjs";
import { withFreshDatabase } from "./fresh-database.mjs";
import { neonIntegration } from "./test-suites.mjs";

const args = process.argv.slice(2);
const files = args.some((arg) => !arg.startsWith("-")) ? [] : ["--project", "integration", ...neonIntegration];
const proxy = await startNeonWsProxy();
let status;
try {
  status = await withFreshDatabase(
    "deckhand_neon",
    (url) =>
      // Asynchronous, so this process's event loop keeps serving the proxy while vitest runs.
      new Promise((resolve) => {
        const child = spawn("npx", ["vitest", "run", ...files, ...args], {
          stdio: "inherit",
          env: {
            ...process.env,
            TEST_DATABASE_URL: url,
            DATABASE_DRIVER: "neon",
            DATABASE_NEON_WS_PROXY: proxy.address,
            EXPECT_DATABASE_DRIVER: "neon",
          },
        });
        child.on("exit", (code) => resolve(code ?? 1));
      }),
  );
  console.log(`test:neon: ${proxy.stats.connections} WebSocket connections through the proxy`);
  if (status === 0 && proxy.stats.connections === 0) {
    console.error("test:neon: no connection went through the proxy; the Neon driver was not used");
    status = 1;
  }
} finally {
  await proxy.close();
}
process.exit(status);
