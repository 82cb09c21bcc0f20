import { and, eq, sql } from "drizzle-orm";
import type { Ctx } from "@/lib/auth/caller";
import { config } from "@/lib/core/config";
import { ownerOf } from "@/lib/assets/assets";
import { resolveDeckImages } from "@/lib/assets/deck-images";
import { compileDeckOffThread } from "@/lib/source/compile-pool";
import { parseTokensCss } from "@/lib/source/tokens";
import { deckDrafts } from "@/lib/db/schema/deck-drafts";
import { draftFrameKey, draftModuleName } from "@/lib/viewer/draft-module";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getOwnedDeck } from "./access";
import { getLatestVersion } from "./latest-version";
import { setContentBody } from "./schemas";

// The editor's draft: what the author types is kept on the server as they type (source and tokens, and
// the version it was based on), whether it compiles or not, so a reload, a crash or a closed tab loses
// nothing; what compiles also becomes the live preview (a short-lived preview link of it). Nothing here is
// a version and nothing is consumed. Saving a version clears the typed source; discarding deletes the row.

/** The draft's preview link and outline; a module that does not compile is refused as compile_failed, its
 * message naming each problem as "Line L:C: text" on a line of its own (and is kept as the typed draft).
 * `module` names the compiled module beside the preview frame (module/{module}) and `frame` is a key of what
 * else the frame document holds: a preview frame of the same key can draw the module in place
 * (lib/viewer/draft-module.ts). */
export type DraftPreview = { url: string; outline: string[]; module: string; frame: string };

export async function compileDraft(
  ctx: Ctx,
  deckId: string,
  input: { source: string; tokensCss: string; basedOnVersion?: number; unsaved?: boolean },
): Promise<DraftPreview> {
  const deck = await getOwnedDeck(ctx, deckId);
  const { source, tokensCss } = setContentBody.parse({ source: input.source, tokensCss: input.tokensCss });
  // Kept to restore only when it differs from what the editor opened or last saved (`unsaved`); the
  // editor's own compile of a saved version (or of a new deck's starter) leaves nothing to restore.
  const typed = input.unsaved
    ? { source, typedTokensCss: tokensCss ?? "", basedOnVersion: input.basedOnVersion ?? null }
    : { source: null, typedTokensCss: null, basedOnVersion: null };
  let compiled;
  let tokens;
  try {
    // Asset URLs and images imported before are shown; a new remote URL is fetched when the deck is saved.
    compiled = await resolveDeckImages(ownerOf(ctx), await compileDeckOffThread({ source, format: deck.format }), {
      fetchRemote: false,
    });
    tokens = parseTokensCss(tokensCss ?? "").css;
  } catch (error) {
    // Not compiling is still the author's work: kept as typed, the preview stays at the last module that
    // compiled (none yet: no preview).
    await ctx.db
      .insert(deckDrafts)
      .values({ deckId: deck.id, userId: ctx.caller.userId, tokensCss: "", compiledJs: null, ...typed })
      .onConflictDoUpdate({ target: [deckDrafts.deckId, deckDrafts.userId], set: { ...typed, updatedAt: sql`now()` } });
    throw error;
  }
  const preview = { tokensCss: tokens, compiledJs: compiled.compiledJs };
  await ctx.db
    .insert(deckDrafts)
    .values({ deckId: deck.id, userId: ctx.caller.userId, ...preview, ...typed })
    .onConflictDoUpdate({
      target: [deckDrafts.deckId, deckDrafts.userId],
      set: { ...preview, ...typed, updatedAt: sql`now()` },
    });
  const token = mintPreviewToken({ deckId: deck.id, version: 0, draftOf: ctx.caller.userId });
  const origin = config.deckContentOrigin ?? config.appUrl;
  return {
    url: `${origin}/preview/${token}/frame`,
    outline: compiled.outline,
    module: draftModuleName(compiled.compiledJs),
    frame: draftFrameKey(deck, tokens),
  };
}

/** What the author typed and has not saved, when it differs from the deck's newest version. */
export type UnsavedDraft = { source: string; tokensCss: string; basedOnVersion: number; savedAt: string };

/** The caller's unsaved draft of a deck they own, or null (none, or the same as the newest version). */
export async function getUnsavedDraft(ctx: Ctx, deckId: string): Promise<UnsavedDraft | null> {
  const deck = await getOwnedDeck(ctx, deckId);
  const [draft] = await ctx.db
    .select()
    .from(deckDrafts)
    .where(and(eq(deckDrafts.deckId, deck.id), eq(deckDrafts.userId, ctx.caller.userId)))
    .limit(1);
  if (!draft || draft.source === null) return null;
  const latest = await getLatestVersion(ctx.db, deck);
  const tokensCss = draft.typedTokensCss ?? draft.tokensCss;
  if (latest && latest.source === draft.source && sameTokens(latest.tokensCss ?? "", tokensCss)) return null;
  return {
    source: draft.source,
    tokensCss,
    basedOnVersion: draft.basedOnVersion ?? deck.versionCount,
    savedAt: draft.updatedAt.toISOString(),
  };
}

function sameTokens(stored: string, typed: string): boolean {
  if (stored === typed) return true;
  try {
    return parseTokensCss(typed).css === stored;
  } catch {
    return false;
  }
}

/** Discard: the caller's draft of the deck is deleted (the editor goes back to the newest version). */
export async function discardDraft(ctx: Ctx, deckId: string): Promise<{ discarded: boolean }> {
  const deck = await getOwnedDeck(ctx, deckId);
  const gone = await ctx.db
    .delete(deckDrafts)
    .where(and(eq(deckDrafts.deckId, deck.id), eq(deckDrafts.userId, ctx.caller.userId)))
    .returning({ deckId: deckDrafts.deckId });
  return { discarded: gone.length > 0 };
}

/** After a save: the typed draft is now a version, so nothing is left to restore (the preview stays). */
export async function clearTypedDraft(ctx: Ctx, deckId: string): Promise<void> {
  await ctx.db
    .update(deckDrafts)
    .set({ source: null, typedTokensCss: null, basedOnVersion: null })
    .where(and(eq(deckDrafts.deckId, deckId), eq(deckDrafts.userId, ctx.caller.userId)));
}

/** Present what is on screen: the content compiled into the caller's draft (as compileDraft), and the
 * present-mode page of that draft (/preview/{token}/view, its presenter window beside it), valid for a
 * talk's length. A module that does not compile is refused as compile_failed: nothing is presented. */
export async function presentDraft(
  ctx: Ctx,
  deckId: string,
  input: Parameters<typeof compileDraft>[2],
): Promise<{ url: string }> {
  await compileDraft(ctx, deckId, input);
  const token = mintPreviewToken({ deckId, version: 0, draftOf: ctx.caller.userId }, PRESENT_TTL_MS);
  return { url: `${config.appUrl}/preview/${token}/view` };
}

const PRESENT_TTL_MS = 4 * 60 * 60 * 1000;
