import { eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { type AuthoringUsage, deckVersions } from "@/lib/db/schema/deck-versions";
import { decks } from "@/lib/db/schema/decks";
import { reserializeStoredTokensCss } from "@/lib/source/tokens";
import { defaultTokensCss } from "@/lib/source/theme-tokens";
import { consumeAllowance, getMonthlyLimit } from "@/lib/usage/consume-allowance";
import type { FeatureId } from "@/lib/usage/features";
import { deckNotFound } from "./access";

export type VersionContent = Pick<
  typeof deckVersions.$inferInsert,
  "format" | "source" | "tokensCss" | "compiledJs" | "outline" | "html"
>;

// The only way a version is written. In one transaction: bump the deck's version counter (the row lock
// serialises concurrent writers, so numbers run 1..N with no gap or duplicate), insert the version, and take
// one version edit from the allowance. Any failure rolls back all three. The allowance is taken last: its
// usage row is the organization's, shared by every writer of every deck there, and is then held only until
// the commit, never while a writer waits for a deck's lock (an organization's writes had queued behind it).
// The monthly limits are read before the transaction; read inside it they were no fresher.
// `basedOnVersion` makes the write conditional: if the deck gained a version since, nothing is saved (409).
export async function appendVersion(
  ctx: Ctx,
  deckId: string,
  content: VersionContent,
  options: {
    prompt: string | null;
    consumesEdit: boolean;
    basedOnVersion?: number;
    usage?: AuthoringUsage | null;
    /** Other metered features the write uses up (an AI generation), taken in the same transaction. */
    alsoConsumes?: FeatureId[];
  },
): Promise<{ id: string; version: number }> {
  const organizationId = ctx.caller.organizationId;
  const features: FeatureId[] = [
    ...(options.consumesEdit ? ["version_edits" as const] : []),
    ...(options.alsoConsumes ?? []),
  ];
  const limits = await Promise.all(features.map((feature) => getMonthlyLimit(ctx.db, organizationId, feature)));
  return ctx.db.transaction(async (tx) => {
    const [deck] = await tx
      .update(decks)
      .set({ versionCount: sql`${decks.versionCount} + 1`, updatedAt: new Date() })
      .where(eq(decks.id, deckId))
      .returning({ versionCount: decks.versionCount });
    if (!deck) throw deckNotFound();
    if (options.basedOnVersion !== undefined && deck.versionCount !== options.basedOnVersion + 1) {
      throw new AppError(
        "conflict",
        "The deck changed while this edit was being prepared; nothing was saved. Retry the edit.",
      );
    }

    const [row] = await tx
      .insert(deckVersions)
      .values({
        ...content,
        // Whatever the tokens came from (a request, a revert of an old row, the AI's copy of the deck's
        // tokens), only their re-serialised, validated form is stored.
        tokensCss: content.tokensCss ? (reserializeStoredTokensCss(content.tokensCss) ?? defaultTokensCss) : null,
        deckId,
        version: deck.versionCount,
        prompt: options.prompt,
        usage: options.usage ?? null,
        createdBy: ctx.caller.userId,
      })
      .returning({ id: deckVersions.id, version: deckVersions.version });
    for (const [index, feature] of features.entries()) {
      await consumeAllowance(tx, organizationId, feature, limits[index]);
    }
    return row!;
  });
}
