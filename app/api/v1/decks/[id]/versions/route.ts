import { json, withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { listDeckVersions } from "@/lib/decks/deck-versions";
import { deckParams } from "@/lib/decks/schemas";

// GET /api/v1/decks/{id}/versions — version summaries, newest first
export const GET = withApiKey<{ id: string }>(async ({ params, ctx }) =>
  json(await listDeckVersions(ctx, readParams(params, deckParams).id)),
);
