import { authorDeck } from "@/lib/ai/author-deck";
import { editDeckBody } from "@/lib/ai/schemas";
import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readParams } from "@/lib/api/input";
import { deckParams } from "@/lib/decks/schemas";

export const maxDuration = 300;

// POST /api/v1/decks/{id}/edit — a targeted change; 409 when the deck changed meanwhile
export const POST = withApiKey<{ id: string }>(
  async ({ req, params, ctx }) => {
    const { id } = readParams(params, deckParams);
    const { instruction } = await readJsonBody(req, editDeckBody);
    return json(await authorDeck(ctx, { kind: "edit", deckId: id, instruction }));
  },
  { limit: "slow" },
);
