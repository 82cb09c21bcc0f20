import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

// Once per run: on PostgreSQL (TEST_DATABASE_URL) apply the migrations; on PGlite build a migrated
// template data dir, cached by the migrations' hash, that each suite loads into its own in-memory database.
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = await openDatabase(url);
    await migrateDatabase(database);
    await database.close();
    return;
  }
  const migrations = path.resolve("drizzle");
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const full = path.join(migrations, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const cacheDir = path.resolve("node_modules/.cache/deckhand");
  const template = path.join(cacheDir, `pglite-${hash.digest("hex").slice(0, 16)}.tar.gz`);
  if (!fs.existsSync(template)) {
    const database = await openPglite(undefined);
    const client = (database.db as unknown as { $client: { dumpDataDir: (c: "gzip") => Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("gzip");
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(`${template}.tmp`, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(`${template}.tmp`, template);
    await database.close();
  }
  project.provide("pgliteTemplate", template);
}
