import { eq } from "drizzle-orm";
import { type AuthoringRequest, runAuthoring, type StepRunner } from "@/lib/ai/author";
import { configuredLanguageModel } from "@/lib/ai/provider";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import { aiRequested, inngest } from "../client";

type Outcome<T> =
  { ok: true; value: T } | { ok: false; error: { code: AppError["code"]; message: string; featureId?: string } };

// generate / edit as durable steps: prepare → draft (model) → compile → repair… → save. A domain
// refusal (422, 402, 409, ai_failed) is an outcome, not a failure to retry; anything else is retried.
export const authorDeck = inngest.createFunction(
  { id: "author-deck", retries: 2, triggers: [aiRequested] },
  async ({ event, step }) => {
    const { runId } = aiRequested.schema!.parse(event.data) as { runId: string };
    const db = await getDb();
    const run = await step.run("load", async () => {
      const [row] = await db.select().from(aiRuns).where(eq(aiRuns.id, runId));
      return row
        ? {
            input: row.input as AuthoringRequest,
            userId: row.userId,
            organizationId: row.organizationId,
            apiKeyId: row.apiKeyId,
          }
        : null;
    });
    if (!run?.userId) return { runId, status: "missing" };

    const durable: StepRunner = async (name, work) => {
      const outcome = (await step.run(name, async (): Promise<Outcome<unknown>> => {
        try {
          return { ok: true, value: await work() };
        } catch (error) {
          if (error instanceof AppError)
            return { ok: false, error: { code: error.code, message: error.message, featureId: error.featureId } };
          throw error;
        }
      })) as Outcome<never>;
      if (!outcome.ok)
        throw new AppError(outcome.error.code, outcome.error.message, { featureId: outcome.error.featureId });
      return outcome.value;
    };

    const ctx = { db, caller: { userId: run.userId, organizationId: run.organizationId, apiKeyId: run.apiKeyId } };
    try {
      const result = await runAuthoring(ctx, run.input, configuredLanguageModel(), durable);
      await step.run("record", () =>
        db.update(aiRuns).set({ status: "completed", result, updatedAt: new Date() }).where(eq(aiRuns.id, runId)),
      );
      return { runId, status: "completed", result };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const failure = {
        code: error.code,
        message: error.message,
        ...(error.featureId ? { featureId: error.featureId } : {}),
      };
      await step.run("record-failure", () =>
        db.update(aiRuns).set({ status: "failed", error: failure, updatedAt: new Date() }).where(eq(aiRuns.id, runId)),
      );
      return { runId, status: "failed", error: failure };
    }
  },
);
