import type { Ctx } from "@/lib/auth/caller";
import { getOwnedDeck } from "./access";
import { getDeckVersion } from "./deck-versions";
import { getLatestVersion } from "./latest-version";
import { mergeSlides, mergeTokens } from "@/lib/source/transform/merge";

// The editor's "Merge" after a save conflict: the author's content (based on `basedOnVersion`) merged with
// the deck's newest version at slide granularity. Nothing is written: the editor shows the result and
// saves it based on the newest version, so a version written meanwhile is a conflict again.
export type MergeWithNewest =
  | { merged: true; theirsVersion: number; source: string; tokensCss: string }
  | { merged: false; theirsVersion: number; reason: string };

export async function mergeWithNewest(
  ctx: Ctx,
  deckId: string,
  input: { basedOnVersion: number; source: string; tokensCss: string },
): Promise<MergeWithNewest> {
  const deck = await getOwnedDeck(ctx, deckId);
  const theirs = await getLatestVersion(ctx.db, deck);
  if (!theirs) return { merged: false, theirsVersion: 0, reason: "The deck has no version to merge with." };
  if (input.basedOnVersion < 1) {
    return { merged: false, theirsVersion: theirs.version, reason: "Your edit was not based on a saved version." };
  }
  const base = await getDeckVersion(ctx, deck.id, input.basedOnVersion);
  const source = mergeSlides(base.source ?? "", input.source, theirs.source ?? "", deck.format);
  if (!source.ok) return { merged: false, theirsVersion: theirs.version, reason: source.reason };
  const tokensCss = mergeTokens(base.tokensCss ?? "", input.tokensCss, theirs.tokensCss ?? "");
  if (tokensCss === null) {
    return { merged: false, theirsVersion: theirs.version, reason: "Both versions changed the theme tokens." };
  }
  return { merged: true, theirsVersion: theirs.version, source: source.source, tokensCss };
}
