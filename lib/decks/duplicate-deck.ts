import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { getReadableDeck } from "./access";
import { deckParams } from "./schemas";
import { copyDeck, copyTitle } from "./start-from-template";

// The library's "Duplicate": a deck of the caller's, titled "<title> (copy)" cut to the title limit, with
// the original's design and newest content as its version 1 (one version edit), so it opens, presents and
// exports at once. Any deck the caller may read in the library can be duplicated; the copy is private.

export const duplicateDeckBody = deckParams.strict();

export async function duplicateDeck(ctx: Ctx, input: z.output<typeof duplicateDeckBody>) {
  const original = await getReadableDeck(ctx, input.id);
  return copyDeck(ctx, original, {
    title: copyTitle(original.title),
    description: original.description,
    prompt: `Duplicated from “${original.title}”`,
  });
}
