import { desc, eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { readVersion } from "./version-cache";
import { users } from "@/lib/db/schema/users";
import { getDeckWithReadableHistory, getOwnedDeckForHistory } from "./access";
import { appendVersion } from "./append-version";
import type { DeckRow } from "./present";
import { versionSchema, versionSummarySchema } from "./schemas";

// Versions, their list and their prompts stay inside the deck's organization (see access.ts): another
// organization reads a public deck through get_deck (its newest version) and gets 404 on every path here.

// GET /decks/{id}/versions: newest first, without content.
export async function listDeckVersions(ctx: Ctx, deckId: string) {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  const rows = await ctx.db
    .select({
      id: deckVersions.id,
      version: deckVersions.version,
      prompt: deckVersions.prompt,
      createdAt: deckVersions.createdAt,
    })
    .from(deckVersions)
    .where(eq(deckVersions.deckId, deck.id))
    .orderBy(desc(deckVersions.version));
  return rows.map((row) => versionSummarySchema.parse(row));
}

// GET /decks/{id}/versions/{version}: one version with its full content.
export async function getDeckVersion(ctx: Ctx, deckId: string, version: number) {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  return versionSchema.parse(await findVersion(ctx, deck, version));
}

// POST /decks/{id}/versions/{version}/revert: the old content copied forward as the newest version.
export async function revertDeckVersion(ctx: Ctx, deckId: string, version: number) {
  const deck = await getOwnedDeckForHistory(ctx, deckId);
  const old = await findVersion(ctx, deck, version);
  return appendVersion(
    ctx,
    deck.id,
    {
      format: old.format,
      source: old.source,
      tokensCss: old.tokensCss,
      compiledJs: old.compiledJs,
      outline: old.outline,
      html: old.html,
    },
    { prompt: `Reverted to version ${version}`, consumesEdit: true },
  );
}

async function findVersion(ctx: Ctx, deck: DeckRow, version: number) {
  const row = version <= deck.versionCount ? await readVersion(ctx.db, deck.id, version) : null;
  if (!row) {
    const latest = deck.versionCount === 0 ? "the deck has no versions yet" : `the newest is ${deck.versionCount}`;
    throw new AppError("not_found", `Version ${version} of this deck does not exist (${latest}).`);
  }
  return row;
}

// The editor's history: every version, newest first, with who wrote it (the API's summary has no author).
export async function listVersionHistory(ctx: Ctx, deckId: string) {
  const deck = await getDeckWithReadableHistory(ctx, deckId);
  return ctx.db
    .select({
      version: deckVersions.version,
      prompt: deckVersions.prompt,
      createdAt: deckVersions.createdAt,
      authorName: users.name,
      authorEmail: users.email,
    })
    .from(deckVersions)
    .leftJoin(users, eq(users.id, deckVersions.createdBy))
    .where(eq(deckVersions.deckId, deck.id))
    .orderBy(desc(deckVersions.version));
}
