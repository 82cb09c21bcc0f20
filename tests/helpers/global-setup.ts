import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

// Once per run (the integration and end-to-end projects share this file; the work is done for the first
// and its result provided to both): build the player's assets; on PostgreSQL (TEST_DATABASE_URL) migrate the
// template database each test file is cloned from; on PGlite build a migrated template data dir, cached by
// the migrations' hash, that each suite loads into its own in-memory database.
const once = globalThis as typeof globalThis & { __deckhandSetup?: Promise<string | undefined> };

export default async function setup(project: TestProject) {
  const first = !once.__deckhandSetup;
  once.__deckhandSetup ??= prepare();
  const template = await once.__deckhandSetup;
  if (template) project.provide("pgliteTemplate", template);
  // The DATA_DIR vitest.config.ts gives the workers, removed once at the end.
  if (first)
    return () => fs.rmSync(path.join(os.tmpdir(), `deckhand-test-${process.pid}`), { recursive: true, force: true });
}

async function prepare(): Promise<string | undefined> {
  // Browser tests load the player's built assets from public/player.
  const build = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/build-player.ts"], {
    stdio: "inherit",
    env: { ...process.env, QUIET: "1" },
  });
  if (build.status !== 0) throw new Error("building the player failed");

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = await openDatabase(url);
    await migrateDatabase(database);
    await database.close();
    return undefined;
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
  return template;
}
