import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readParams } from "@/lib/api/input";
import { deleteDeck } from "@/lib/decks/delete-deck";
import { getDeck } from "@/lib/decks/get-deck";
import { deckParams, updateDeckBody } from "@/lib/decks/schemas";
import { updateDeck } from "@/lib/decks/update-deck";

type Params = { id: string };

// GET /api/v1/decks/{id} — the deck with its newest version's content
export const GET = withApiKey<Params>(async ({ params, ctx }) =>
  json(await getDeck(ctx, readParams(params, deckParams).id)),
);

// PATCH /api/v1/decks/{id} — title, kind, description, archived, visibility (owner only)
export const PATCH = withApiKey<Params>(async ({ req, params, ctx }) => {
  const { id } = readParams(params, deckParams);
  return json(await updateDeck(ctx, id, await readJsonBody(req, updateDeckBody)));
});

// DELETE /api/v1/decks/{id} — the deck and all its versions (owner only)
export const DELETE = withApiKey<Params>(async ({ params, ctx }) =>
  json(await deleteDeck(ctx, readParams(params, deckParams).id)),
);
