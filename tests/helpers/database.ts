import fs from "node:fs";
import { afterAll, inject } from "vitest";
import { type Database, openDatabase, openPglite, adoptDatabase } from "@/lib/db/client";

// Each suite gets its own database on PGlite (an in-memory copy of the migrated template), or shares the
// PostgreSQL server's when TEST_DATABASE_URL is set; suites never share organizations or users.
export async function setUpTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const database = url
    ? await openDatabase(url)
    : await openPglite(undefined, { loadDataDir: new Blob([fs.readFileSync(inject("pgliteTemplate"))]) });
  adoptDatabase(database);
  afterAll(() => database.close());
  return database;
}
