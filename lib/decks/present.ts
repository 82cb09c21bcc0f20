import { config } from "@/lib/core/config";
import type { decks } from "@/lib/db/schema/decks";
import { deckSchema } from "./schemas";

export type DeckRow = typeof decks.$inferSelect;

// The API's view of a deck row. publicUrl exists only while the deck is public; the slug survives unpublishing.
export function presentDeck(row: DeckRow) {
  return deckSchema.parse({
    ...row,
    publicUrl: row.visibility === "public" && row.publicSlug ? publicUrlFor(row.publicSlug) : null,
  });
}

export function publicUrlFor(slug: string): string {
  return `${config.viewerBaseUrl}/d/${slug}`;
}
