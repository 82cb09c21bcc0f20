import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readParams } from "@/lib/api/input";
import { deckParams, setContentBody } from "@/lib/decks/schemas";
import { setDeckContent } from "@/lib/decks/set-deck-content";

// PUT /api/v1/decks/{id}/content — compile a deck-tsx module and append it as the newest version
export const PUT = withApiKey<{ id: string }>(async ({ req, params, ctx }) => {
  const { id } = readParams(params, deckParams);
  return json(await setDeckContent(ctx, id, await readJsonBody(req, setContentBody)));
});
