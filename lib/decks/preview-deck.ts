import { and, eq, inArray } from "drizzle-orm";
import { config } from "@/lib/core/config";
import type { Ctx } from "@/lib/auth/caller";
import { decks } from "@/lib/db/schema/decks";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getDeckVersion } from "./deck-versions";

// A short-lived URL that renders one version of a deck the caller may read, whatever its visibility,
// in the sandboxed player (the editor's preview, the export renderer).
export async function createPreviewUrl(ctx: Ctx, deckId: string, version: number, options: { ttlMs?: number } = {}) {
  await getDeckVersion(ctx, deckId, version);
  const token = mintPreviewToken({ deckId, version }, options.ttlMs);
  const origin = config.deckContentOrigin ?? config.appUrl;
  return { url: `${origin}/preview/${token}/frame`, token };
}

// Thumbnail links (the newest version's first slide) of decks the caller has just listed: listDecks applied
// the access rules, so one query of version numbers replaces a read of every version.
export async function listedDeckThumbnails(ctx: Ctx, deckIds: string[]): Promise<Map<string, string>> {
  if (deckIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: decks.id, versionCount: decks.versionCount })
    .from(decks)
    .where(and(eq(decks.organizationId, ctx.caller.organizationId), inArray(decks.id, deckIds)));
  const origin = config.deckContentOrigin ?? config.appUrl;
  return new Map(
    rows
      .filter((row) => row.versionCount > 0)
      .map((row) => {
        const token = mintPreviewToken({ deckId: row.id, version: row.versionCount }, 60 * 60 * 1000);
        return [row.id, `${origin}/preview/${token}/frame?mode=thumb&chrome=0&slide=1`];
      }),
  );
}
