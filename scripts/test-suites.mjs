// Which suites the PostgreSQL and Neon runs repeat (npm run test:pg, test:neon). `npm test` runs every suite on
// PGlite, which is PostgreSQL's own server compiled to WebAssembly: the same SQL, types and constraints. What a
// server changes is the connection: a pool of many, row locks and leases between them, connections cut under
// a transaction, the driver's wire protocol. The repeated runs cover the suites where that is the subject.
import fs from "node:fs";

// Integration suites whose subject is not the database: they read no more from it than any suite does, and a
// different server changes nothing in what they check (the OpenAPI document, tools run over it, the packed
// client, workers, fonts, file stores, fetches, a hostile website, the model provider).
const notAboutTheDatabase = new Set([
  "ai-provider.test.ts",
  "brand-availability.test.ts",
  "client-package.test.ts",
  "compile-pool.test.ts",
  "embed-fonts.test.ts",
  "file-store.test.ts",
  "full-disk.test.ts",
  "openapi.test.ts",
  "pptx-worker.test.ts",
  "safe-fetch.test.ts",
  "third-party-tools.test.ts",
  "tokens-injection.test.ts",
]);

/** Every integration suite but those above: the PostgreSQL run's share of tests/integration. */
export function postgresIntegration() {
  return fs
    .readdirSync("tests/integration")
    .filter((name) => name.endsWith(".test.ts") && !notAboutTheDatabase.has(name))
    .sort()
    .map((name) => `tests/integration/${name}`);
}

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

// The Neon run: the suites whose subject is what the driver does — each query shape the domain relies on,
// transactions that land whole or not at all, concurrent writers of versions, leases, counters and a
// connection cut mid-transaction.
export const neonIntegration = [
  "tests/integration/database-driver.test.ts",
  "tests/integration/concurrency.test.ts",
  "tests/integration/versions.test.ts",
  "tests/integration/database-faults.test.ts",
  "tests/integration/jobs.test.ts",
  "tests/integration/import.test.ts",
  "tests/integration/slide-edits.test.ts",
  "tests/integration/rate-limit.test.ts",
  "tests/integration/unlock-limits.test.ts",
  "tests/integration/reads.test.ts",
];
