import { and, asc, desc, eq, getTableColumns, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { preparedStatement } from "@/lib/db/prepared";
import { decks } from "@/lib/db/schema/decks";
import { type DeckRow, type DeckView, presentDeck } from "./present";
import type { DeckCursor, listDecksQuery } from "./schemas";

// GET /decks: 'mine' is what the caller owns; 'org' is every deck of the organization the caller may read.
// The app's library adds a title search, format and visibility filters and a sort to the API's query (the
// API lists newest first, as SPEC.md says). With a limit it is one page; a cursor continues after a page.
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

/** One page of the list: its decks, and where the next page starts (null on the last page or without a limit). */
export type DeckPage = { items: DeckView[]; next: DeckCursor | null };

export async function listDecks(ctx: Ctx, query: DeckListFilters): Promise<DeckPage> {
  const { userId, organizationId } = ctx.caller;
  const search = query.search?.trim();
  const sort = query.sort ?? "created";
  // A cursor is a place in the API's order (newest first); the library's other orders only take a limit.
  if (query.cursor && sort !== "created") throw new Error("a deck cursor follows the list's newest-first order");
  const values = {
    organizationId,
    userId,
    kind: query.kind,
    format: query.format,
    visibility: query.visibility,
    pattern: search && `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    // One more than the page, to know whether another page follows.
    limit: query.limit === undefined ? undefined : query.limit + 1,
    afterCreatedAt: query.cursor?.createdAt,
    afterId: query.cursor?.id,
  };
  // The statement depends only on which filters are given (a few dozen shapes at most), their values are
  // its parameters, so each shape is prepared once (lib/db/prepared.ts).
  const shape = [
    query.scope,
    query.includeArchived ? "all" : "live",
    ...(["kind", "format", "visibility", "pattern", "limit", "afterId"] as const).filter((name) => values[name]),
    sort,
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
    // After the cursor's deck in (created_at desc, id desc): decks made since the first page come before it,
    // so they neither repeat nor push others out of the pages still to come.
    if (values.afterId) {
      filters.push(
        sql`(${decks.createdAt}, ${decks.id}) < (${sql.placeholder("afterCreatedAt")}::timestamptz, ${sql.placeholder("afterId")}::uuid)`,
      );
    }
    const columns = values.limit ? { ...getTableColumns(decks), createdAtExact } : getTableColumns(decks);
    const statement = db
      .select(columns)
      .from(decks)
      .where(and(...filters))
      .orderBy(...orderings[sort]);
    return (values.limit ? statement.limit(sql.placeholder("limit")) : statement).prepare(`decks_${shape}`);
  });
  const rows = (await list.execute(values)) as (DeckRow & { createdAtExact?: string })[];
  const more = query.limit !== undefined && rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map(presentDeck),
    next: more && last ? { createdAt: last.createdAtExact!, id: last.id } : null,
  };
}

// A deck's creation time to the microsecond (a Date keeps milliseconds), as a cursor names it.
const createdAtExact = sql<string>`to_char(${decks.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
