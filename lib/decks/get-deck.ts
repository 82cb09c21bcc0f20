import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { getReadableDeck } from "./access";
import { getLatestVersion } from "./latest-version";
import { presentDeck } from "./present";
import type { deckDetailSchema } from "./schemas";

// GET /decks/{id}: the deck with the content of its newest version. This is all another organization
// reads of a public deck (its history is not shared, see access.ts), so latestVersion holds only what the
// viewer serves and a template lends: no prompt, no author, no earlier version. The source stays: the
// viewer's compiled module (unminified) carries the same code, and a deck started from a template opens
// with the template's newest source. Built as presentDeck is, field by field (a unit test holds it to
// deckDetailSchema).
export async function getDeck(ctx: Ctx, id: string): Promise<z.output<typeof deckDetailSchema>> {
  const deck = await getReadableDeck(ctx, id);
  const latest = await getLatestVersion(ctx.db, deck);
  return {
    ...presentDeck(deck),
    versionCount: deck.versionCount,
    latestVersion: latest && {
      version: latest.version,
      format: latest.format,
      source: latest.source,
      tokensCss: latest.tokensCss,
      compiledJs: latest.compiledJs,
      outline: latest.outline,
      html: latest.html,
    },
  };
}
