import { eq, isNotNull, and } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { exports } from "@/lib/db/schema/exports";
import { getFileStore } from "@/lib/storage/storage";
import { getOwnedDeck } from "./access";

// DELETE /decks/{id}: the deck and, by cascade, all its versions and exports; then the files rendered
// from it (exported files, preview images, slide images), so nothing of a deleted deck stays downloadable.
export async function deleteDeck(ctx: Ctx, id: string): Promise<{ deleted: true }> {
  const deck = await getOwnedDeck(ctx, id);
  const files = await ctx.db
    .select({ blobKey: exports.blobKey })
    .from(exports)
    .where(and(eq(exports.deckId, deck.id), isNotNull(exports.blobKey)));
  await ctx.db.delete(decks).where(eq(decks.id, deck.id));
  const store = getFileStore();
  await Promise.all([
    ...files.map((file) => store.delete(file.blobKey!).catch(() => {})),
    store.deletePrefix(`og/${deck.id}/`).catch(() => {}),
    store.deletePrefix(`slides/${deck.id}/`).catch(() => {}),
  ]);
  return { deleted: true };
}
