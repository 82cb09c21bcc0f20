import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { users } from "@/lib/db/schema/users";
import { canReadDeck } from "./access";

// A colleague opening a private deck's link: the app explains that the deck is private and whose it is,
// so they know whom to ask, instead of a bare 404. Only inside the deck's organization, where the API
// already answers 403 ("private to its owner"); outside it nothing is said, not even that the deck exists
// (lib/decks/access.ts). The deck's title and content stay hidden.
export async function privateDeckOwner(ctx: Ctx, id: string): Promise<{ name: string; email: string } | null> {
  const [row] = await ctx.db
    .select({
      organizationId: decks.organizationId,
      ownerId: decks.ownerId,
      visibility: decks.visibility,
      sharePasswordHash: decks.sharePasswordHash,
      shareExpiresAt: decks.shareExpiresAt,
      name: users.name,
      email: users.email,
    })
    .from(decks)
    .innerJoin(users, eq(users.id, decks.ownerId))
    .where(eq(decks.id, id));
  if (!row || row.organizationId !== ctx.caller.organizationId || canReadDeck(row, ctx.caller)) return null;
  return { name: row.name ?? row.email, email: row.email };
}
