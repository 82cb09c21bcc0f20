import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import { cloneDatabase, dropDatabase } from "../../scripts/fresh-database.mjs";

// On PostgreSQL runs (TEST_DATABASE_URL names the migrated template: npm run test:pg, test:neon) each test
// file gets a database of its own, cloned from the template before the file is loaded (CREATE DATABASE …
// TEMPLATE …), so files run in parallel without taking each other's export jobs, leases or rate-limit
// counters. Everything in the file (the suite's database, servers and CLIs it starts) reads the clone's URL
// from TEST_DATABASE_URL. On PGlite runs this does nothing: each suite loads its own in-memory copy.
const template = process.env.TEST_DATABASE_URL;
if (template) {
  const url = await cloneDatabase(template, `${new URL(template).pathname.slice(1)}_${randomBytes(5).toString("hex")}`);
  process.env.TEST_DATABASE_URL = url;
  // Runs after the suite's own afterAll hooks (hooks run in reverse order of registration).
  afterAll(() => dropDatabase(url));
}
