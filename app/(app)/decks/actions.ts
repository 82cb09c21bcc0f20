"use server";

import { redirect } from "next/navigation";
import { defineAction } from "@/app/_server/action";
import { createDeck } from "@/lib/decks/create-deck";
import { createDeckInAppBody } from "@/lib/decks/schemas";
import { startFromTemplate, startFromTemplateBody } from "@/lib/decks/start-from-template";
import { importDeck, importDeckBody } from "@/lib/ai/import-deck";

// The library's actions: a new deck (slides or webpage), blank or started from a template, or imported from
// Markdown, opened in the editor once made.

export const createDeckAction = defineAction({
  input: createDeckInAppBody,
  run: (ctx, input) => createDeck(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});

/** import_deck: Markdown (a Marp or Slidev deck, an outline) → a new deck and its first version. */
export const importDeckAction = defineAction({
  input: importDeckBody,
  run: (ctx, input) => importDeck(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});

/** "Use template": a new deck with the template's design and newest content as its first version. */
export const startFromTemplateAction = defineAction({
  input: startFromTemplateBody,
  run: (ctx, input) => startFromTemplate(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});
