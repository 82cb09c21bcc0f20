import { eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Caller, Ctx } from "@/lib/auth/caller";
import { preparedStatement } from "@/lib/db/prepared";
import { decks } from "@/lib/db/schema/decks";
import type { DeckRow } from "./present";

// Who may see and change a deck:
// - private: its owner only; org: every member of its organization; public: every member of its
//   organization, and any authenticated caller of another organization while its share link is open.
// - A share link is open while it has no password and has not expired (share_password_hash null,
//   share_expires_at null or in the future). A locked or expired link closes the deck to other
//   organizations by id too, not only at /d/<slug>: every read by id (get_deck, the check, exports and
//   their download, a deck started from or duplicated from it, MCP, the app's actions) goes through
//   canReadDeck, so outside its organization such a deck answers exactly as one the caller may not read.
//   The share page keeps its own prompt and unlock (lib/viewer/link-access.ts), which open the viewer only.
// - Only the owner modifies or deletes.
// - A deck the caller may not read in another organization is a 404 (its existence stays hidden);
//   in the caller's own organization it is a 403.
// - A deck's history (the version list with its prompts, any version by number, reverting to one) stays
//   inside its organization: another organization reads an open public deck only as its viewer shows it,
//   the newest version through get_deck, and every version path answers it 404, public or not.

type AccessFields = Pick<DeckRow, "organizationId" | "ownerId" | "visibility" | "sharePasswordHash" | "shareExpiresAt">;

/** The one rule of who may read a deck; `now` decides whether an expiry has passed. */
export function canReadDeck(deck: AccessFields, caller: Caller, now: Date = new Date()): boolean {
  if (deck.organizationId === caller.organizationId) {
    return deck.visibility !== "private" || deck.ownerId === caller.userId;
  }
  return deck.visibility === "public" && shareLinkIsOpen(deck, now);
}

// As the share page decides it (lib/viewer/viewable-deck.ts findPublicDeck): expired once now reaches the
// expiry; a password closes it to every reader who has not unlocked it, and nobody unlocks by id.
function shareLinkIsOpen(deck: Pick<DeckRow, "sharePasswordHash" | "shareExpiresAt">, now: Date): boolean {
  if (deck.sharePasswordHash !== null) return false;
  return deck.shareExpiresAt === null || deck.shareExpiresAt.getTime() > now.getTime();
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

// Outside its organization only a public deck with an open link is known to exist, so only there the
// answer says why.
function assertSameOrganization(deck: DeckRow, caller: Caller) {
  if (deck.organizationId === caller.organizationId) return;
  if (!canReadDeck(deck, caller)) throw deckNotFound();
  throw new AppError(
    "not_found",
    "Deck versions not found: another organization's versions are not shared; get_deck shows a public deck's newest version.",
  );
}

export function deckNotFound(): AppError {
  return new AppError("not_found", "Deck not found.");
}
