import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import type { Queryable } from "@/lib/db/types";

// Versions never change once written (the table is append-only; a trigger refuses updates and deletes other
// than the deck's own), and a deck's id is never reused, so a version read once is the same for good: the
// process keeps the ones it read recently, up to CACHE_BYTES of content, and a read of the same version
// asks the database nothing. Access is checked before (the deck row is always read), so a deleted deck's
// versions are never answered from here. Only reads outside a transaction are kept: a version seen inside
// one may be rolled back.

export type VersionRow = typeof deckVersions.$inferSelect;

const CACHE_BYTES = 64 * 1024 * 1024;

type Cache = { rows: Map<string, VersionRow>; bytes: number };
const holder = globalThis as typeof globalThis & { __deckhandVersions?: Cache };
const cache: Cache = (holder.__deckhandVersions ??= { rows: new Map(), bytes: 0 });

const sizeOf = (row: VersionRow) =>
  2 *
  ((row.source?.length ?? 0) + (row.compiledJs?.length ?? 0) + (row.html?.length ?? 0) + (row.tokensCss?.length ?? 0));

/** One version of a deck, or null; from memory when this process read it before. */
export async function readVersion(db: Queryable, deckId: string, version: number): Promise<VersionRow | null> {
  const key = `${deckId}:${version}`;
  const kept = cache.rows.get(key);
  if (kept) {
    cache.rows.delete(key);
    cache.rows.set(key, kept); // most recently used last
    return kept;
  }
  const [row] = await db
    .select()
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deckId), eq(deckVersions.version, version)))
    .limit(1);
  if (!row || db !== (await getDb())) return row ?? null;
  const size = sizeOf(row);
  if (size > CACHE_BYTES / 8) return row;
  cache.rows.set(key, row);
  cache.bytes += size;
  for (const [oldest, old] of cache.rows) {
    if (cache.bytes <= CACHE_BYTES) break;
    cache.rows.delete(oldest);
    cache.bytes -= sizeOf(old);
  }
  return row;
}
