import { adoptAssets, assetHashesIn, ownerOf } from "@/lib/assets/assets";
import type { Ctx } from "@/lib/auth/caller";
import type { Db } from "@/lib/db/types";
import { getDeckWithReadableHistory } from "./access";
import { appendVersion } from "./append-version";
import { createDeck } from "./create-deck";
import { getLatestVersion } from "./latest-version";
import { copyTitle } from "./start-from-template";

// "Duplicate to my decks": a member who may read a colleague's deck but not change it gets a deck of their
// own with its newest content as the first version (one version edit), titled "<title> (copy)" cut to the
// title limit. One transaction: the deck and its version exist together or not at all.
export async function duplicateDeck(ctx: Ctx, id: string) {
  const from = await getDeckWithReadableHistory(ctx, id);
  const latest = await getLatestVersion(ctx.db, from);
  return ctx.db.transaction(async (tx) => {
    const inTx: Ctx = { ...ctx, db: tx as unknown as Db };
    const deck = await createDeck(inTx, {
      title: copyTitle(from.title),
      description: from.description,
      kind: "deck",
      format: from.format,
      fromDeckId: from.id,
      brandId: null,
    });
    if (latest?.format === "deck-tsx") {
      const { format, source, tokensCss, compiledJs, outline } = latest;
      await adoptAssets(ownerOf(inTx), assetHashesIn(`${compiledJs}\n${source}`), from.organizationId);
      await appendVersion(
        inTx,
        deck.id,
        { format, source, tokensCss, compiledJs, outline, html: null },
        { prompt: `Duplicated from “${from.title}” (version ${latest.version})`, consumesEdit: true },
      );
    }
    return deck;
  });
}
