import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { pollUntil } from "@/lib/core/poll";
import type { Ctx } from "@/lib/auth/caller";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { getOwnedDeck } from "@/lib/decks/access";
import { enqueue } from "@/lib/jobs/enqueue";
import { aiRunJob, readAiRunOutcome } from "./ai-run-job";
import type { AuthoringRequest } from "./author";
import { aiTimeoutMs } from "./provider";

// POST /decks/{id}/generate and /edit: record the request as an ai_runs row, hand it to the jobs transport
// (Inngest, or the in-process runner) like an export, and wait on the row for the outcome.

export async function authorDeck(ctx: Ctx, request: AuthoringRequest): Promise<{ id: string; version: number }> {
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
  await enqueue(aiRunJob, run!.id, ctx.caller.organizationId);

  const outcome = await pollUntil(() => readAiRunOutcome(ctx.db, run!.id), {
    // The model's own limit, the repairs and the queue — but no longer than the route may run (maxDuration 300 s).
    deadline: Date.now() + Math.min(aiTimeoutMs() * 3 + 30_000, 290_000),
    // The local runner starts at once and an offline run takes a fraction of a second; Inngest first
    // has to deliver the event.
    firstDelayMs: config.inngestConfigured ? 500 : 50,
    maxDelayMs: 500,
    timeout: () => new AppError("ai_timeout", "The authoring run did not finish in time; nothing was saved yet."),
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
