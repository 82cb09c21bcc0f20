import { randomBytes } from "node:crypto";
import { cloneDatabase } from "../../scripts/fresh-database.mjs";

// On PostgreSQL runs (TEST_DATABASE_URL names the migrated template: npm run test:pg, test:neon) each test
// file gets a database of its own, cloned from the template before the file is loaded (CREATE DATABASE …
// TEMPLATE …), so files run in parallel without taking each other's export jobs, leases or rate-limit
// counters. Everything in the file (the suite's database, servers and CLIs it starts) reads the clone's URL
// from TEST_DATABASE_URL. The clones are dropped with the template at the end of the run
// (scripts/fresh-database.mjs). On PGlite runs this does nothing: each suite loads its own in-memory copy.
const template = process.env.TEST_DATABASE_URL;
if (template) {
  const name = `${new URL(template).pathname.slice(1)}_${randomBytes(5).toString("hex")}`;
  process.env.TEST_DATABASE_URL = await cloneDatabase(template, name);
}
