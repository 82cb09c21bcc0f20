// Offline `revise` (generate_deck in revise mode without a model): the brief is read as edit instructions
// and applied to the current deck (add a slide about X after Y with the given points, and every command of
// the offline editor). A brief it cannot read that way is refused with a 422 saying a model is needed, so
// a deck is never replaced by whatever the instruction text would make as a new deck.

import type { DeckFormat } from "@/lib/contract/deck";
import { AppError } from "@/lib/core/errors";
import { editOfflineDeck, type OfflineEdit } from "./edit-deck";

export function reviseOfflineDeck(input: { source: string; brief: string; format: DeckFormat }): OfflineEdit {
  try {
    return editOfflineDeck({ source: input.source, instruction: input.brief, format: input.format });
  } catch (error) {
    if (error instanceof AppError && error.code === "invalid_request") {
      throw new AppError(
        "invalid_request",
        `Without an AI model, revising a deck applies only instructions the offline editor recognises; it never rewrites the deck from a brief. ${error.message} Nothing was saved.`,
        { cause: error },
      );
    }
    throw error;
  }
}
