import { eq } from "drizzle-orm";
import { aiRequested, inngest, inngestConfigured } from "@/inngest/client";
import { AppError, type ErrorCode, errorStatus } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { getOwnedDeck } from "@/lib/decks/access";
import { type AuthoringRequest, runAuthoring } from "./author";
import { aiTimeoutMs, configuredLanguageModel } from "./provider";

// POST /decks/{id}/generate and /edit: run the authoring steps inline, or — with Inngest configured — as
// an Inngest function while this request waits on the run's row for the outcome.

export async function authorDeck(ctx: Ctx, request: AuthoringRequest): Promise<{ id: string; version: number }> {
  if (!inngestConfigured()) return runAuthoring(ctx, request, configuredLanguageModel());
  // Refuse what the run would refuse (unknown deck, not the owner) before recording it.
  await getOwnedDeck(ctx, request.deckId);

  const [run] = await ctx.db
    .insert(aiRuns)
    .values({
      organizationId: ctx.caller.organizationId,
      deckId: request.deckId,
      userId: ctx.caller.userId,
      apiKeyId: ctx.caller.apiKeyId,
      kind: request.kind,
      input: request,
    })
    .returning({ id: aiRuns.id });
  await inngest.send(aiRequested.create({ runId: run!.id }));

  // The model's own limit, the repairs and the queue — but no longer than the route may run (maxDuration 300 s).
  const deadline = Date.now() + Math.min(aiTimeoutMs() * 3 + 30_000, 290_000);
  for (;;) {
    const [row] = await ctx.db.select().from(aiRuns).where(eq(aiRuns.id, run!.id));
    if (row?.status === "completed" && row.result) return row.result;
    if (row?.status === "failed" && row.error) {
      const code = (row.error.code in errorStatus ? row.error.code : "internal") as ErrorCode;
      throw new AppError(code, row.error.message, { featureId: row.error.featureId });
    }
    if (Date.now() > deadline)
      throw new AppError("ai_timeout", "The authoring run did not finish in time; nothing was saved yet.");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
