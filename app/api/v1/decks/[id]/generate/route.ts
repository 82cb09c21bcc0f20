import { authorDeck } from "@/lib/ai/author-deck";
import { generateDeckBody } from "@/lib/ai/schemas";
import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readParams } from "@/lib/api/input";
import { deckParams } from "@/lib/decks/schemas";

// A model call can take minutes; on Vercel the function may run this long.
export const maxDuration = 300;

// POST /api/v1/decks/{id}/generate — write (create) or rewrite (revise) the deck from a brief
export const POST = withApiKey<{ id: string }>(
  async ({ req, params, ctx }) => {
    const { id } = readParams(params, deckParams);
    const { brief, mode } = await readJsonBody(req, generateDeckBody);
    return json(await authorDeck(ctx, { kind: "generate", deckId: id, brief, mode }));
  },
  { limit: "slow" },
);
