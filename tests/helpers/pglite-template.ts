import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// The migrated embedded database a test run starts from, made once per set of migrations (and PGlite version)
// by global-setup.ts and cached in node_modules/.cache/deckhand: a gzipped dump the integration suites load
// into an in-memory database of their own, and a data folder that each end-to-end server copies into its
// DATA_DIR instead of creating and migrating a database of its own (about 12 s of every server start on a
// busy machine, 3 s on a quiet one). Every copy is a database of its own: suites stay apart.

const cacheDir = path.resolve("node_modules/.cache/deckhand");

function templateKey(): string {
  const hash = createHash("sha256");
  const migrations = path.resolve("drizzle");
  for (const file of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const full = path.join(migrations, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const pglite = JSON.parse(fs.readFileSync(path.resolve("node_modules/@electric-sql/pglite/package.json"), "utf8"));
  hash.update(String(pglite.version));
  return hash.digest("hex").slice(0, 16);
}

/** Where the dump (`.tar.gz`) and the data folder (a DATA_DIR holding `pglite/`) of the current migrations go. */
export function templatePaths(): { dump: string; dataDir: string } {
  const key = templateKey();
  return { dump: path.join(cacheDir, `pglite-${key}.tar.gz`), dataDir: path.join(cacheDir, `data-${key}`) };
}

/**
 * Gives a fresh DATA_DIR the template's migrated database, when the run made one (global-setup.ts); the
 * server would otherwise create and migrate it on start, which is slower but the same. Benchmarks run
 * without it.
 */
export function seedDataDir(dataDir: string): void {
  const template = templatePaths().dataDir;
  if (!fs.existsSync(template) || fs.existsSync(path.join(dataDir, "pglite"))) return;
  fs.cpSync(path.join(template, "pglite"), path.join(dataDir, "pglite"), { recursive: true });
}
