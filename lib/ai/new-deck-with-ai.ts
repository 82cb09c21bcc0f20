import { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { createDeck } from "@/lib/decks/create-deck";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { createDeckInAppBody } from "@/lib/decks/schemas";
import { authorDeck } from "./author-deck";
import { configuredLanguageModel } from "./provider";
import { generateDeckBody } from "./schemas";
import { logger } from "@/lib/core/log";

// The library's "New deck with AI": a new slide deck written from a brief, as create_deck then
// generate_deck (mode create) would make it, by the model or, without one, the offline generator. A run
// that fails leaves no empty deck behind: the deck made for it is deleted and the run's error answered.

const log = logger("ai");

export const newDeckWithAiBody = z.strictObject({
  title: createDeckInAppBody.shape.title,
  brief: generateDeckBody.shape.brief,
});

export async function newDeckWithAi(ctx: Ctx, input: z.output<typeof newDeckWithAiBody>) {
  const deck = await createDeck(ctx, {
    title: input.title,
    description: "",
    kind: "deck",
    format: "slides",
    brandId: null,
    fromDeckId: null,
  });
  try {
    await authorDeck(ctx, { kind: "generate", deckId: deck.id, brief: input.brief, mode: "create" });
  } catch (error) {
    // The empty deck goes with the failed run; if even that fails, the log says which deck is left.
    await deleteDeck(ctx, deck.id).catch((cleanup: unknown) =>
      log.error("the empty deck of a failed run could not be deleted", { deckId: deck.id, error: cleanup }),
    );
    throw error;
  }
  return deck;
}

/** What writes a deck here: the configured model's name, or null for the offline generator. */
export function authoringModelName(): string | null {
  const model = configuredLanguageModel();
  if (!model) return null;
  return typeof model === "string" ? model : model.modelId;
}
