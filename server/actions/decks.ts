"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { defineAction } from "@/server/action";
import { createDeck } from "@/lib/decks/create-deck";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { duplicateDeck, duplicateDeckBody } from "@/lib/decks/duplicate-deck";
import { createDeckInAppBody, deckParams, updateDeckBody } from "@/lib/decks/schemas";
import { updateDeck } from "@/lib/decks/update-deck";
import { startFromTemplate, startFromTemplateBody } from "@/lib/decks/start-from-template";
import { newDeckWithAi, newDeckWithAiBody } from "@/lib/ai/new-deck-with-ai";
import { importDeckRequest, runImport } from "@/lib/import/import-deck-request";

// The library's actions: a new deck (slides or webpage), blank or started from a template, written with AI,
// or imported from Markdown or PowerPoint, opened in the editor once made; and each card's rename, duplicate and delete, after which the
// library is drawn again. Each is the API's operation with its schema (update_deck's title limits,
// delete_deck's owner rule), scoped by the domain to the caller's organization.

const refreshLibrary = () => revalidatePath("/decks");

export const createDeckAction = defineAction({
  input: createDeckInAppBody,
  run: (ctx, input) => createDeck(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});

/**
 * import_deck, as "Import Markdown" and "Import PowerPoint" send it: Markdown (a Marp or Slidev deck, an
 * outline) or a .pptx in base64 (faithful or restyle mode) → a new deck and its first version. Server actions
 * carry at most 21 MB (next.config.ts), so the library takes files up to 15 MB; larger ones go through the API.
 */
export const importDeckAction = defineAction({
  input: importDeckRequest,
  rateLimit: "slow",
  run: (ctx, input) => runImport(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});

/** "Use template": a new deck with the template's design and newest content as its first version. */
export const startFromTemplateAction = defineAction({
  input: startFromTemplateBody,
  run: (ctx, input) => startFromTemplate(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});

/** Rename from a library card: update_deck with only the title (1 to 300 characters), owner only. */
export const renameDeckAction = defineAction({
  input: deckParams.extend({ title: updateDeckBody.shape.title.unwrap() }).strict(),
  run: async (ctx, { id, title }) => ({ title: (await updateDeck(ctx, id, { title })).title }),
  onSuccess: refreshLibrary,
});

/** Duplicate from a library card: a copy with the newest content as version 1, "<title> (copy)". */
export const duplicateDeckAction = defineAction({
  input: duplicateDeckBody,
  run: async (ctx, input) => {
    const copy = await duplicateDeck(ctx, input);
    return { id: copy.id, title: copy.title };
  },
  onSuccess: refreshLibrary,
});

/** Delete from a library card (after its confirmation): delete_deck, owner only. */
export const deleteLibraryDeckAction = defineAction({
  input: deckParams.strict(),
  run: (ctx, { id }) => deleteDeck(ctx, id),
  onSuccess: refreshLibrary,
});

/** "New deck with AI": a new slide deck written from the brief (the model, or the offline generator). */
export const newDeckWithAiAction = defineAction({
  input: newDeckWithAiBody,
  rateLimit: "slow",
  run: (ctx, input) => newDeckWithAi(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});
