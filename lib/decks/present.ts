import type { z } from "zod";
import { config } from "@/lib/core/config";
import type { decks } from "@/lib/db/schema/decks";
import type { deckSchema } from "./schemas";

export type DeckRow = typeof decks.$inferSelect;
export type DeckView = z.output<typeof deckSchema>;

// The API's view of a deck row: exactly deckSchema's fields, picked one by one, so a column added to the
// table (a share password's hash, the initial tokens) is never sent by accident. Built by hand rather than
// by deckSchema.parse: a row from the database already has these types, and parsing every row of every
// list (uuid and date-time checks, twenty rows a request) was a sixth of list_decks' time under load. A
// unit test holds that the view is what deckSchema would answer.
export function presentDeck(row: DeckRow): DeckView {
  return {
    id: row.id,
    title: row.title,
    brandId: row.brandId,
    kind: row.kind,
    description: row.description,
    archived: row.archived,
    startedFromDeckId: row.startedFromDeckId,
    format: row.format,
    visibility: row.visibility,
    publicSlug: row.publicSlug,
    publicUrl: row.visibility === "public" && row.publicSlug ? publicUrlFor(row.publicSlug) : null,
    organizationId: row.organizationId,
    ownerId: row.ownerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function publicUrlFor(slug: string): string {
  return `${config.viewerBaseUrl}/d/${slug}`;
}
