"use server";

import { redirect } from "next/navigation";
import { defineAction } from "@/app/_server/action";
import { createDeck } from "@/lib/decks/create-deck";
import { createDeckInAppBody } from "@/lib/decks/schemas";

// The library's actions: a new deck (slides or webpage), blank or started from a template, opened in the
// editor once made.

export const createDeckAction = defineAction({
  input: createDeckInAppBody,
  run: (ctx, input) => createDeck(ctx, input),
  onSuccess: (deck) => redirect(`/decks/${deck.id}`),
});
