import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readQuery } from "@/lib/api/input";
import { createDeck } from "@/lib/decks/create-deck";
import { listDecks } from "@/lib/decks/list-decks";
import { createDeckBody, listDecksQuery } from "@/lib/decks/schemas";

// GET /api/v1/decks — the caller's (or the organization's) decks, newest first
export const GET = withApiKey(async ({ req, ctx }) => json(await listDecks(ctx, readQuery(req, listDecksQuery))));

// POST /api/v1/decks — an empty slides deck, optionally branded or started from another deck
export const POST = withApiKey(async ({ req, ctx }) =>
  json(await createDeck(ctx, await readJsonBody(req, createDeckBody)), 201),
);
