import { eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Caller, Ctx } from "@/lib/auth/caller";
import { preparedStatement } from "@/lib/db/prepared";
import { decks } from "@/lib/db/schema/decks";
import type { DeckRow } from "./present";

// Who may see and change a deck:
// - private: its owner only; org: every member of its organization; public: any authenticated caller.
// - Only the owner modifies or deletes.
// - A deck the caller may not read in another organization is a 404 (its existence stays hidden);
//   in the caller's own organization it is a 403.
// - A deck's history (the version list with its prompts, any version by number, reverting to one) stays
//   inside its organization: another organization reads a public deck only as its viewer shows it, the
//   newest version through get_deck, and every version path answers it 404, public or not.

export function canReadDeck(deck: Pick<DeckRow, "organizationId" | "ownerId" | "visibility">, caller: Caller): boolean {
  if (deck.visibility === "public") return true;
  if (deck.organizationId !== caller.organizationId) return false;
  return deck.visibility === "org" || deck.ownerId === caller.userId;
}

// Every deck operation starts here, so the lookup is a prepared statement.
async function findDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  const byId = preparedStatement(ctx.db, "deck_by_id", (db) =>
    db
      .select()
      .from(decks)
      .where(eq(decks.id, sql.placeholder("id")))
      .limit(1)
      .prepare("deck_by_id"),
  );
  const [deck] = await byId.execute({ id });
  if (!deck) throw deckNotFound();
  return deck;
}

export async function getReadableDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  const deck = await findDeck(ctx, id);
  if (canReadDeck(deck, ctx.caller)) return deck;
  if (deck.organizationId !== ctx.caller.organizationId) throw deckNotFound();
  throw new AppError("forbidden", "This deck is private to its owner.");
}

export async function getOwnedDeck(ctx: Ctx, id: string): Promise<DeckRow> {
  return assertOwner(await findDeck(ctx, id), ctx.caller);
}

function assertOwner(deck: DeckRow, caller: Caller): DeckRow {
  if (deck.ownerId === caller.userId && deck.organizationId === caller.organizationId) return deck;
  if (deck.organizationId !== caller.organizationId && !canReadDeck(deck, caller)) throw deckNotFound();
  throw new AppError("forbidden", "Only the deck's owner can modify or delete it.");
}

// For reading the version list or a version: as getReadableDeck inside the organization; 404 outside it.
export async function getDeckWithReadableHistory(ctx: Ctx, id: string): Promise<DeckRow> {
  const deck = await findDeck(ctx, id);
  assertSameOrganization(deck, ctx.caller);
  if (canReadDeck(deck, ctx.caller)) return deck;
  throw new AppError("forbidden", "This deck is private to its owner.");
}

// For reverting to a version: as getOwnedDeck, but 404 (not 403) for another organization's public deck.
export async function getOwnedDeckForHistory(ctx: Ctx, id: string): Promise<DeckRow> {
  const deck = await findDeck(ctx, id);
  assertSameOrganization(deck, ctx.caller);
  return assertOwner(deck, ctx.caller);
}

// Outside its organization only a public deck is known to exist, so only there the answer says why.
function assertSameOrganization(deck: DeckRow, caller: Caller) {
  if (deck.organizationId === caller.organizationId) return;
  if (deck.visibility !== "public") throw deckNotFound();
  throw new AppError(
    "not_found",
    "Deck versions not found: another organization's versions are not shared; get_deck shows a public deck's newest version.",
  );
}

export function deckNotFound(): AppError {
  return new AppError("not_found", "Deck not found.");
}
