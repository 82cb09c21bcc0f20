import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { preparedStatement } from "@/lib/db/prepared";
import { decks } from "@/lib/db/schema/decks";
import { type DeckRow, presentDeck } from "./present";
import type { listDecksQuery } from "./schemas";

// GET /decks: 'mine' is what the caller owns; 'org' is every deck of the organization the caller may read.
// The app's library adds a title search, format and visibility filters and a sort to the API's query (the
// API lists newest first, as SPEC.md says).
export const deckSorts = ["updated", "created", "title"] as const;
type DeckSort = (typeof deckSorts)[number];

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
  const search = query.search?.trim();
  const values = {
    organizationId,
    userId,
    kind: query.kind,
    format: query.format,
    visibility: query.visibility,
    pattern: search && `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
  };
  // The statement depends only on which filters are given (a few dozen shapes at most), their values are
  // its parameters, so each shape is prepared once (lib/db/prepared.ts).
  const shape = [
    query.scope,
    query.includeArchived ? "all" : "live",
    ...(["kind", "format", "visibility", "pattern"] as const).filter((name) => values[name]),
    query.sort ?? "created",
  ].join("_");
  const list = preparedStatement(ctx.db, `decks_${shape}`, (db) => {
    const filters: (SQL | undefined)[] = [eq(decks.organizationId, sql.placeholder("organizationId"))];
    const own = eq(decks.ownerId, sql.placeholder("userId"));
    filters.push(query.scope === "mine" ? own : or(own, inArray(decks.visibility, ["org", "public"])));
    if (values.kind) filters.push(eq(decks.kind, sql.placeholder("kind")));
    if (!query.includeArchived) filters.push(eq(decks.archived, false));
    if (values.format) filters.push(eq(decks.format, sql.placeholder("format")));
    if (values.visibility) filters.push(eq(decks.visibility, sql.placeholder("visibility")));
    if (values.pattern) {
      const pattern = sql.placeholder("pattern");
      filters.push(or(ilike(decks.title, pattern), ilike(decks.description, pattern)));
    }
    return db
      .select()
      .from(decks)
      .where(and(...filters))
      .orderBy(...orderings[query.sort ?? "created"])
      .prepare(`decks_${shape}`);
  });
  const rows: DeckRow[] = await list.execute(values);
  return rows.map(presentDeck);
}
