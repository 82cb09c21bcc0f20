import { and, eq, sql } from "drizzle-orm";
import { decks } from "@/lib/db/schema/decks";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import type { Queryable } from "@/lib/db/types";

const slugPattern = /^[0-9a-z]{6,32}$/;

export type PublishedDeck = {
  id: string;
  /** Slides (or beats) of the newest version: the only slide numbers an event may name. */
  slides: number;
  passwordHash: string | null;
  expiresAt: Date | null;
};

// The deck a share link names, if it is public right now with content; null otherwise. Its link controls
// come with it: whoever serves the link decides what an expired or locked link answers.
export async function findPublishedDeck(db: Queryable, slug: string): Promise<PublishedDeck | null> {
  if (!slugPattern.test(slug)) return null;
  const [row] = await db
    .select({
      id: decks.id,
      slides: sql<number>`coalesce(jsonb_array_length(${deckVersions.outline}), 0)::int`,
      passwordHash: decks.sharePasswordHash,
      expiresAt: decks.shareExpiresAt,
    })
    .from(decks)
    .innerJoin(deckVersions, and(eq(deckVersions.deckId, decks.id), eq(deckVersions.version, decks.versionCount)))
    .where(and(eq(decks.publicSlug, slug), eq(decks.visibility, "public")))
    .limit(1);
  return row ? { ...row, slides: Number(row.slides) } : null;
}
