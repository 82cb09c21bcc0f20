import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { getOwnedDeck } from "./access";

// DELETE /decks/{id}: the deck and, by cascade, all its versions and exports.
export async function deleteDeck(ctx: Ctx, id: string): Promise<{ deleted: true }> {
  const deck = await getOwnedDeck(ctx, id);
  await ctx.db.delete(decks).where(eq(decks.id, deck.id));
  return { deleted: true };
}
