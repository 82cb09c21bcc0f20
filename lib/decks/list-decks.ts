import { and, desc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { presentDeck } from "./present";
import type { listDecksQuery } from "./schemas";

// GET /decks: 'mine' is what the caller owns; 'org' is every deck of the organization the caller may read.
export async function listDecks(ctx: Ctx, query: z.output<typeof listDecksQuery>) {
  const { userId, organizationId } = ctx.caller;
  const filters: (SQL | undefined)[] = [eq(decks.organizationId, organizationId)];
  filters.push(
    query.scope === "mine"
      ? eq(decks.ownerId, userId)
      : or(eq(decks.ownerId, userId), inArray(decks.visibility, ["org", "public"])),
  );
  if (query.kind) filters.push(eq(decks.kind, query.kind));
  if (!query.includeArchived) filters.push(eq(decks.archived, false));

  const rows = await ctx.db
    .select()
    .from(decks)
    .where(and(...filters))
    .orderBy(desc(decks.createdAt), desc(decks.id));
  return rows.map(presentDeck);
}
