import { and, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Ctx } from "@/lib/auth/caller";
import { AppError } from "@/lib/core/errors";
import { exports } from "@/lib/db/schema/exports";
import { getRenderableVersion } from "@/lib/decks/renderable-version";
import { enqueue } from "@/lib/jobs/enqueue";
import { exportJob } from "./export-job";
import { exportFileName, presentExport } from "./present";
import type { createExportBody } from "./schemas";

// Repeated requests for the same deck, version, format and layout by the same credential within this window get
// the export already made (or being made) instead of a second render.
const EXPORT_REUSE_WINDOW_MS = 10 * 60 * 1000;

// POST /decks/{id}/exports: anyone who may read the deck may export it.
export async function createExport(ctx: Ctx, deckId: string, input: z.output<typeof createExportBody>) {
  const layout = input.layout ?? "slides";
  if (input.format === "pptx" && layout === "notes") {
    throw new AppError(
      "invalid_request",
      "body.layout: 'notes' is for PDF exports only (a PPTX keeps the speaker notes on each slide's notes page); send format 'pdf' with layout 'notes', or leave layout out.",
    );
  }
  const { deck, version } = await getRenderableVersion(ctx, deckId, input.version, "exported");

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
        eq(exports.layout, layout),
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
      layout,
      requestedByKeyId: ctx.caller.apiKeyId,
      requestedByUserId: ctx.caller.userId,
      fileName: exportFileName(deck.title, version, input.format, layout),
    })
    .returning();
  await enqueue(exportJob, created!.id, created!.organizationId);
  return presentExport(created!);
}
