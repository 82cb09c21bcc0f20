import { and, eq } from "drizzle-orm";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import type { Queryable } from "@/lib/db/types";
import type { DeckRow } from "./present";
import { readVersion } from "./version-cache";

export async function getLatestVersion(db: Queryable, deck: Pick<DeckRow, "id" | "versionCount">) {
  if (deck.versionCount === 0) return null;
  return readVersion(db, deck.id, deck.versionCount);
}

// The tokens a new version gets when the writer sends none: the newest version's, else what the deck
// started with (its starting deck or brand), else the default theme.
export async function currentTokensCss(
  db: Queryable,
  deck: Pick<DeckRow, "id" | "versionCount" | "initialTokensCss">,
): Promise<string> {
  if (deck.versionCount > 0) {
    const [row] = await db
      .select({ tokensCss: deckVersions.tokensCss })
      .from(deckVersions)
      .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, deck.versionCount)))
      .limit(1);
    if (row?.tokensCss) return row.tokensCss;
  }
  return deck.initialTokensCss ?? defaultTokensCss;
}
