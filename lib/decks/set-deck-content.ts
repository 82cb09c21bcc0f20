import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { compileDeckOffThread } from "@/lib/deck/compile-pool";
import { parseTokensCss } from "@/lib/deck/tokens";
import { getOwnedDeck } from "./access";
import { appendVersion } from "./append-version";
import { currentTokensCss } from "./latest-version";
import type { setContentBody } from "./schemas";

// PUT /decks/{id}/content: compile first (outside any transaction), then append the version.
// A module that does not compile throws compile_failed and nothing is written or consumed.
export async function setDeckContent(ctx: Ctx, id: string, input: z.output<typeof setContentBody>) {
  const deck = await getOwnedDeck(ctx, id);
  const { compiledJs, outline } = await compileDeckOffThread({ source: input.source, format: deck.format });
  const tokensCss =
    input.tokensCss != null ? parseTokensCss(input.tokensCss).css : await currentTokensCss(ctx.db, deck);

  return appendVersion(
    ctx,
    deck.id,
    { format: "deck-tsx", source: input.source, tokensCss, compiledJs, outline, html: null },
    { prompt: input.prompt ?? null, consumesEdit: true },
  );
}
