import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { ownerOf } from "@/lib/assets/assets";
import { resolveDeckImages } from "@/lib/assets/deck-images";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { parseTokensCss, reserializeStoredTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { getOwnedDeck } from "./access";
import { appendVersion } from "./append-version";
import { currentTokensCss } from "./latest-version";
import type { setContentBody } from "./schemas";

// PUT /decks/{id}/content: compile first (outside any transaction), import the module's remote images
// (lib/assets/deck-images.ts: the compiled module then refers to the stored copies), then append the
// version. A module that does not compile throws compile_failed, an image that cannot be imported a 422
// naming its URL, and nothing is written or consumed.
// `basedOnVersion` (the editor's save) makes the write conditional: a deck that gained a version since is a
// 409 and nothing is saved.
export async function setDeckContent(
  ctx: Ctx,
  id: string,
  input: z.output<typeof setContentBody>,
  options: { basedOnVersion?: number; fetchedImages?: ReadonlyMap<string, Buffer> } = {},
) {
  const deck = await getOwnedDeck(ctx, id);
  const { compiledJs, outline } = await resolveDeckImages(
    ownerOf(ctx),
    await compileDeckOffThread({ source: input.source, format: deck.format }),
    { fetchRemote: true, fetched: options.fetchedImages },
  );
  // Sent tokens are validated and stored re-serialised (a refusal is a 422 naming the token); tokens
  // carried over from the deck are re-serialised too, so a row stored before values were checked the way
  // a browser reads them cannot be copied forward as it was.
  const tokensCss =
    input.tokensCss != null
      ? parseTokensCss(input.tokensCss).css
      : (reserializeStoredTokensCss(await currentTokensCss(ctx.db, deck)) ?? defaultTokensCss);

  return appendVersion(
    ctx,
    deck.id,
    { format: "deck-tsx", source: input.source, tokensCss, compiledJs, outline, html: null },
    { prompt: input.prompt ?? null, consumesEdit: true, basedOnVersion: options.basedOnVersion },
  );
}
