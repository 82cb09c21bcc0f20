import { sql } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { config } from "@/lib/core/config";
import { ownerOf } from "@/lib/assets/assets";
import { resolveDeckImages } from "@/lib/assets/deck-images";
import { compileDeckOffThread } from "@/lib/deck/compile-pool";
import { parseTokensCss } from "@/lib/deck/tokens";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getOwnedDeck } from "./access";
import { setContentBody } from "./schemas";

// The editor's live preview: compile what the author is typing, keep it as their draft of the deck, and
// answer a short-lived preview link of it. Nothing here is a version and nothing is consumed.

/** The draft's preview link and outline; a module that does not compile is refused as compile_failed, its
 * message naming each problem as "Line L:C: text" on a line of its own. */
export type DraftPreview = { url: string; outline: string[] };

export async function compileDraft(
  ctx: Ctx,
  deckId: string,
  input: { source: string; tokensCss: string },
): Promise<DraftPreview> {
  const deck = await getOwnedDeck(ctx, deckId);
  const { source, tokensCss } = setContentBody.parse({ source: input.source, tokensCss: input.tokensCss });
  // Asset URLs and images imported before are shown; a new remote URL is fetched when the deck is saved.
  const compiled = await resolveDeckImages(ownerOf(ctx), await compileDeckOffThread({ source, format: deck.format }), {
    fetchRemote: false,
  });
  const tokens = parseTokensCss(tokensCss ?? "").css;
  await ctx.db
    .insert(deckDrafts)
    .values({ deckId: deck.id, userId: ctx.caller.userId, tokensCss: tokens, compiledJs: compiled.compiledJs })
    .onConflictDoUpdate({
      target: [deckDrafts.deckId, deckDrafts.userId],
      set: { tokensCss: tokens, compiledJs: compiled.compiledJs, updatedAt: sql`now()` },
    });
  const token = mintPreviewToken({ deckId: deck.id, version: 0, draftOf: ctx.caller.userId });
  const origin = config.deckContentOrigin ?? config.appUrl;
  return { url: `${origin}/preview/${token}/frame`, outline: compiled.outline };
}
