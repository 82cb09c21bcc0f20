import { eq, isNotNull, and } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { exports } from "@/lib/db/schema/exports";
import { getFileStore } from "@/lib/storage/storage";
import { getOwnedDeck } from "./access";
import { logger } from "@/lib/core/log";

const log = logger("decks");

// DELETE /decks/{id}: the deck and, by cascade, all its versions and exports; then the files rendered
// from it (exported files, preview images, slide images), so nothing of a deleted deck stays downloadable.
export async function deleteDeck(ctx: Ctx, id: string): Promise<{ deleted: true }> {
  const deck = await getOwnedDeck(ctx, id);
  const files = await ctx.db
    .select({ blobKey: exports.blobKey })
    .from(exports)
    .where(and(eq(exports.deckId, deck.id), isNotNull(exports.blobKey)));
  await ctx.db.delete(decks).where(eq(decks.id, deck.id));
  // The deck is gone whatever happens to its files: a file that could not be deleted is logged (an orphan
  // an operator may remove by its key), not a failure of the delete.
  const store = getFileStore();
  const orphaned = (key: string) => (error: unknown) =>
    log.warn("a deleted deck's file could not be deleted", { deckId: deck.id, key, error });
  await Promise.all([
    ...files.map((file) => store.delete(file.blobKey!).catch(orphaned(file.blobKey!))),
    store.deletePrefix(`og/${deck.id}/`).catch(orphaned(`og/${deck.id}/`)),
    store.deletePrefix(`slides/${deck.id}/`).catch(orphaned(`slides/${deck.id}/`)),
  ]);
  return { deleted: true };
}
