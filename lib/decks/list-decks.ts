import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { type DeckRow, presentDeck } from "./present";
import type { listDecksQuery } from "./schemas";

// GET /decks: 'mine' is what the caller owns; 'org' is every deck of the organization the caller may read.
// The app's library adds a title search, format and visibility filters and a sort to the API's query (the
// API lists newest first, as SPEC.md says).
export const deckSorts = ["updated", "created", "title"] as const;
export type DeckSort = (typeof deckSorts)[number];

export type DeckListFilters = z.output<typeof listDecksQuery> & {
  search?: string;
  format?: DeckRow["format"];
  visibility?: DeckRow["visibility"];
  /** "created" (newest first, the default), "updated" (last changed first) or "title" (A to Z). */
  sort?: DeckSort;
};

const orderings: Record<DeckSort, SQL[]> = {
  created: [desc(decks.createdAt), desc(decks.id)],
  updated: [desc(decks.updatedAt), desc(decks.createdAt), desc(decks.id)],
  title: [asc(sql`lower(${decks.title})`), asc(decks.title), desc(decks.createdAt), desc(decks.id)],
};

export async function listDecks(ctx: Ctx, query: DeckListFilters) {
  const { userId, organizationId } = ctx.caller;
  const filters: (SQL | undefined)[] = [eq(decks.organizationId, organizationId)];
  filters.push(
    query.scope === "mine"
      ? eq(decks.ownerId, userId)
      : or(eq(decks.ownerId, userId), inArray(decks.visibility, ["org", "public"])),
  );
  if (query.kind) filters.push(eq(decks.kind, query.kind));
  if (!query.includeArchived) filters.push(eq(decks.archived, false));
  if (query.format) filters.push(eq(decks.format, query.format));
  if (query.visibility) filters.push(eq(decks.visibility, query.visibility));
  if (query.search?.trim()) {
    const pattern = `%${query.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(decks.title, pattern), ilike(decks.description, pattern)));
  }

  const rows = await ctx.db
    .select()
    .from(decks)
    .where(and(...filters))
    .orderBy(...orderings[query.sort ?? "created"]);
  return rows.map(presentDeck);
}
