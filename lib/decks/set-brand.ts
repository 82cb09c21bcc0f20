import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { brands } from "@/lib/db/schema/brands";
import { decks } from "@/lib/db/schema/decks";
import { getOwnedDeck } from "./access";
import { brandTokensCss } from "./create-deck";

// The editor's brand picker: the deck now names this brand (or none), and the editor gets the brand's
// tokens to apply. Tokens are content: they become a version only when the author saves.
export async function setDeckBrand(
  ctx: Ctx,
  deckId: string,
  brandId: string | null,
): Promise<{ tokensCss: string | null }> {
  const deck = await getOwnedDeck(ctx, deckId);
  let tokensCss: string | null = null;
  if (brandId) {
    const [brand] = await ctx.db
      .select({ id: brands.id, data: brands.data })
      .from(brands)
      .where(and(eq(brands.id, brandId), eq(brands.organizationId, ctx.caller.organizationId)));
    if (!brand) throw new AppError("not_found", "Brand not found.");
    tokensCss = brandTokensCss(brand.data);
  }
  await ctx.db.update(decks).set({ brandId, updatedAt: new Date() }).where(eq(decks.id, deck.id));
  return { tokensCss };
}
