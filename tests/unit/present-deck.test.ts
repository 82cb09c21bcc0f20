import { describe, expect, it } from "vitest";
import { type DeckRow, presentDeck } from "@/lib/decks/present";
import { deckSchema } from "@/lib/decks/schemas";

// presentDeck builds the API's view of a deck row field by field instead of parsing it with deckSchema
// (cheaper on every list and read); it must answer exactly what deckSchema would, and nothing more.

const row: DeckRow = {
  id: "7b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  organizationId: "1b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  ownerId: "2b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  title: "Quarterly review",
  description: "Numbers",
  kind: "deck",
  format: "slides",
  visibility: "public",
  archived: false,
  brandId: null,
  startedFromDeckId: "3b0c6a6e-4f7a-4c39-9d6f-1d2f3a4b5c6d",
  publicSlug: "q-review",
  sharePasswordHash: "$argon2id$v=19$secret",
  shareExpiresAt: new Date("2027-01-01T00:00:00Z"),
  initialTokensCss: ":root{--accent:#f00}",
  versionCount: 3,
  createdAt: new Date("2026-11-01T10:00:00.123Z"),
  updatedAt: new Date("2026-11-02T11:30:00Z"),
} as DeckRow;

describe("presentDeck", () => {
  it("answers what deckSchema would, for public and private decks", () => {
    for (const deck of [
      row,
      { ...row, visibility: "private" as const },
      { ...row, visibility: "public" as const, publicSlug: null },
    ]) {
      const view = presentDeck(deck);
      expect(view).toEqual(deckSchema.parse({ ...deck, publicUrl: view.publicUrl }));
      expect(Object.keys(view).sort()).toEqual(Object.keys(deckSchema.shape).sort());
    }
    expect(presentDeck(row).publicUrl).toMatch(/\/d\/q-review$/);
    expect(presentDeck({ ...row, visibility: "org" }).publicUrl).toBeNull();
    expect(presentDeck(row).createdAt).toBe("2026-11-01T10:00:00.123Z");
  });

  it("never sends a column the schema does not name (the share password's hash, the initial tokens)", () => {
    const sent = JSON.stringify(presentDeck(row));
    expect(sent).not.toContain("argon2id");
    expect(sent).not.toContain("--accent");
    expect(sent).not.toContain("versionCount");
  });
});
