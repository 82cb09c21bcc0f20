import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase, openPglite } from "@/lib/db/client";
import { templatePaths } from "./pglite-template";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

// Once per run (the integration and end-to-end projects share this file; the work is done for the first
// and its result provided to both): build the player's assets; on PostgreSQL (TEST_DATABASE_URL) migrate the
// template database each test file is cloned from; on PGlite make the migrated templates (pglite-template.ts):
// a dump each integration suite loads into its own in-memory database, a data folder e2e servers copy.
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
  // Browser tests load the player's built assets from public/player. With NO_REBUILD=1 (CI) the one build
  // of the run made them, and a stale build fails the suites that start servers (scripts/build-if-stale.mjs).
  if (process.env.NO_REBUILD !== "1") {
    const build = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/build-player.ts"], {
      stdio: "inherit",
      env: { ...process.env, QUIET: "1" },
    });
    if (build.status !== 0) throw new Error("building the player failed");
  }

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = await openDatabase(url);
    await migrateDatabase(database);
    await database.close();
    return undefined;
  }
  const { dump, dataDir } = templatePaths();
  fs.mkdirSync(path.dirname(dump), { recursive: true });
  if (!fs.existsSync(dump)) {
    const database = await openPglite(undefined);
    const client = (database.db as unknown as { $client: { dumpDataDir: (c: "gzip") => Promise<Blob> } }).$client;
    const data = await client.dumpDataDir("gzip");
    fs.writeFileSync(`${dump}.tmp`, Buffer.from(await data.arrayBuffer()));
    fs.renameSync(`${dump}.tmp`, dump);
    await database.close();
  }
  if (!fs.existsSync(dataDir)) {
    // Made beside its final place and renamed when whole: a run cut short leaves no half-made template.
    const making = `${dataDir}.${process.pid}.tmp`;
    fs.rmSync(making, { recursive: true, force: true });
    const database = await openPglite(path.join(making, "pglite"));
    await database.close();
    fs.rmSync(path.join(making, "deckhand.lock"), { force: true });
    fs.renameSync(making, dataDir);
  }
  return dump;
}
