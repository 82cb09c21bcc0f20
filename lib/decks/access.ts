import { eq } from "drizzle-orm";
import { ApiError } from "@/lib/api/errors";
import type { Caller, Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import type { DeckRow } from "./present";

// Who may see and change a deck:
// - private: its owner only; org: every member of its organization; public: any authenticated caller.
// - Only the owner modifies or deletes.
// - A deck the caller may not read in another organization is a 404 (its existence stays hidden);
//   in the caller's own organization it is a 403.

export function canReadDeck(deck: Pick<DeckRow, "organizationId" | "ownerId" | "visibility">, caller: Caller): boolean {
  if (deck.visibility === "public") return true;
  if (deck.organizationId !== caller.organizationId) return false;
  return deck.visibility === "org" || deck.ownerId === caller.userId;
}

async function findDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  const [deck] = await ctx.db.select().from(decks).where(eq(decks.id, id)).limit(1);
  if (!deck) throw deckNotFound();
  return deck;
}

export async function getReadableDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  const deck = await findDeck(ctx, id);
  if (canReadDeck(deck, ctx.caller)) return deck;
  if (deck.organizationId !== ctx.caller.organizationId) throw deckNotFound();
  throw new ApiError("forbidden", "This deck is private to its owner.");
}

export async function getOwnedDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  const deck = await findDeck(ctx, id);
  if (deck.ownerId === ctx.caller.userId && deck.organizationId === ctx.caller.organizationId) return deck;
  if (deck.organizationId !== ctx.caller.organizationId && !canReadDeck(deck, ctx.caller)) throw deckNotFound();
  throw new ApiError("forbidden", "Only the deck's owner can modify or delete it.");
}

export function deckNotFound(): ApiError {
  return new ApiError("not_found", "Deck not found.");
}
