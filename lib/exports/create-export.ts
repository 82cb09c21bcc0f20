import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { deckVersions } from "@/lib/db/schema/deck-versions";
import { exports } from "@/lib/db/schema/exports";
import { getReadableDeck } from "@/lib/decks/access";
import { enqueue } from "@/lib/jobs/enqueue";
import { exportJob } from "./export-job";
import { exportFileName, presentExport } from "./present";
import type { createExportBody } from "./schemas";

// Repeated requests for the same deck, version and format by the same credential within this window get
// the export already made (or being made) instead of a second render.
export const EXPORT_REUSE_WINDOW_MS = 10 * 60 * 1000;

// POST /decks/{id}/exports: anyone who may read the deck may export it.
export async function createExport(ctx: Ctx, deckId: string, input: z.output<typeof createExportBody>) {
  const deck = await getReadableDeck(ctx, deckId);
  if (deck.format !== "slides") {
    throw new AppError("invalid_request", "Only slides decks can be exported; this deck is a webpage.");
  }
  if (deck.versionCount === 0) {
    throw new AppError("invalid_request", "This deck has no content yet; write a version before exporting it.");
  }
  const version = input.version ?? deck.versionCount;
  // Another organization reads a public deck's newest version only; its history is not shared.
  if (version !== deck.versionCount && deck.organizationId !== ctx.caller.organizationId) {
    throw new AppError("not_found", `Version ${version} of this deck is not shared outside its organization.`);
  }
  const [row] = await ctx.db
    .select({ format: deckVersions.format })
    .from(deckVersions)
    .where(and(eq(deckVersions.deckId, deck.id), eq(deckVersions.version, version)));
  if (!row)
    throw new AppError(
      "not_found",
      `Version ${version} of this deck does not exist (the newest is ${deck.versionCount}).`,
    );
  if (row.format !== "deck-tsx") {
    throw new AppError(
      "invalid_request",
      `Version ${version} is a legacy HTML document; only deck-tsx versions can be exported.`,
    );
  }

  const requester = ctx.caller.apiKeyId
    ? eq(exports.requestedByKeyId, ctx.caller.apiKeyId)
    : and(isNull(exports.requestedByKeyId), eq(exports.requestedByUserId, ctx.caller.userId));
  const [reusable] = await ctx.db
    .select()
    .from(exports)
    .where(
      and(
        eq(exports.deckId, deck.id),
        eq(exports.version, version),
        eq(exports.format, input.format),
        requester,
        inArray(exports.status, ["pending", "running", "completed"]),
        gt(exports.createdAt, new Date(Date.now() - EXPORT_REUSE_WINDOW_MS)),
      ),
    )
    .orderBy(desc(exports.createdAt))
    .limit(1);
  if (reusable) return presentExport(reusable);

  const [created] = await ctx.db
    .insert(exports)
    .values({
      organizationId: ctx.caller.organizationId,
      deckId: deck.id,
      version,
      format: input.format,
      requestedByKeyId: ctx.caller.apiKeyId,
      requestedByUserId: ctx.caller.userId,
      fileName: exportFileName(deck.title, version, input.format),
    })
    .returning();
  await enqueue(exportJob, created!.id);
  return presentExport(created!);
}
