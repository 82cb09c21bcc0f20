import { eq } from "drizzle-orm";
import { AppError, type ErrorCode, isErrorCode } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { aiRuns } from "@/lib/db/schema/ai-runs";
import type { Db } from "@/lib/db/types";
import { aiRequested } from "@/lib/jobs/inngest";
import { defineJob } from "@/lib/jobs/job";
import { type AuthoringRequest, runAuthoring, type StepRunner } from "./author";
import { configuredLanguageModel } from "./provider";
import { logger } from "@/lib/core/log";

// generate / edit as a job: load the ai_runs row, run the authoring steps (prepare → draft → compile →
// repair… → save) and record the outcome on the row, where the request that asked is waiting for it
// (./author-deck.ts). On Inngest each step is durable (`step.run`); on the local runner steps run inline.

/** A transport's step: runs `work` once under `name` and returns its result (replayed on Inngest). */
export type Step = (name: string, work: () => Promise<unknown>) => Promise<unknown>;

const inline: Step = (_name, work) => work();

// What the row keeps of a refusal: the AppError's code, message and feature.
type Refusal = { code: string; message: string; featureId?: string };

// An error that is no refusal, as far as the waiting request's error mapping reads it: the message of each
// cause, and the database's code and detail (a NUL character PostgreSQL refused is the caller's 422).
type Fault = { message: string; code?: string; detail?: string; cause?: Fault };

// The row's `error`: a refusal, or a fault (code "internal") that the request answers as a server error.
type Failure = Refusal & { fault?: Fault };

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Refusal };

export type AiRunResult =
  | { runId: string; status: "missing" }
  | { runId: string; status: "completed"; result: { id: string; version: number } }
  | { runId: string; status: "failed"; error: Failure };

function refusal(error: AppError): Refusal {
  return { code: error.code, message: error.message, ...(error.featureId ? { featureId: error.featureId } : {}) };
}

// A durable step's result must be JSON: a refusal (422, 402, 409, ai_failed) is returned as an outcome and
// thrown again after the step, so a replayed run refuses the same way instead of retrying what cannot
// succeed. Anything else is thrown from the step.
function replayable(step: Step): StepRunner {
  return async (name, work) => {
    const outcome = (await step(name, async (): Promise<Outcome<unknown>> => {
      try {
        return { ok: true, value: await work() };
      } catch (error) {
        if (error instanceof AppError) return { ok: false, error: refusal(error) };
        throw error;
      }
    })) as Outcome<never>;
    if (!outcome.ok)
      throw new AppError(outcome.error.code as ErrorCode, outcome.error.message, {
        featureId: outcome.error.featureId,
      });
    return outcome.value;
  };
}

function fault(error: unknown, depth = 0): Fault {
  const { code, detail, cause } = (error ?? {}) as { code?: unknown; detail?: unknown; cause?: unknown };
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof detail === "string" ? { detail } : {}),
    ...(cause && depth < 4 ? { cause: fault(cause, depth + 1) } : {}),
  };
}

function faultError(fault: Fault): Error {
  const error = new Error(fault.message, fault.cause ? { cause: faultError(fault.cause) } : undefined);
  return Object.assign(error, { code: fault.code, detail: fault.detail });
}

/**
 * Runs the authoring request recorded as `runId` and records its outcome on the row. `retried`: the
 * transport runs the job again when it throws (Inngest), so an unexpected error is thrown for a retry;
 * nothing retries a local run, so there it is recorded as the run's failure and the request answers at once.
 */
export async function runAiRun(runId: string, options: { step?: Step; retried?: boolean } = {}): Promise<AiRunResult> {
  const step = options.step ?? inline;
  const db = await getDb();
  const run = (await step("load", async () => {
    const [row] = await db.select().from(aiRuns).where(eq(aiRuns.id, runId));
    return row
      ? {
          status: row.status,
          result: row.result,
          error: row.error as Failure | null,
          input: row.input as AuthoringRequest,
          userId: row.userId,
          organizationId: row.organizationId,
          apiKeyId: row.apiKeyId,
        }
      : null;
  })) as {
    status: "pending" | "completed" | "failed";
    result: { id: string; version: number } | null;
    error: Failure | null;
    input: AuthoringRequest;
    userId: string | null;
    organizationId: string;
    apiKeyId: string | null;
  } | null;
  // Gone with its deck, or its user deleted: nobody is left to answer.
  if (!run?.userId) return { runId, status: "missing" };
  // Delivered again after it ended: its outcome stands, nothing is authored twice.
  if (run.status === "completed" && run.result) return { runId, status: "completed", result: run.result };
  if (run.status === "failed" && run.error) return { runId, status: "failed", error: run.error };

  const ctx = { db, caller: { userId: run.userId, organizationId: run.organizationId, apiKeyId: run.apiKeyId } };
  let failure: Failure;
  try {
    const result = await runAuthoring(ctx, run.input, configuredLanguageModel(), replayable(step));
    await step("record", () =>
      db.update(aiRuns).set({ status: "completed", result, updatedAt: new Date() }).where(eq(aiRuns.id, runId)),
    );
    return { runId, status: "completed", result };
  } catch (error) {
    if (error instanceof AppError) failure = refusal(error);
    else if (options.retried) throw error;
    else {
      logger("ai").error("the authoring run failed", { runId, error });
      failure = { code: "internal", message: "The authoring run failed unexpectedly.", fault: fault(error) };
    }
  }
  await step("record-failure", () =>
    db.update(aiRuns).set({ status: "failed", error: failure, updatedAt: new Date() }).where(eq(aiRuns.id, runId)),
  );
  return { runId, status: "failed", error: failure };
}

// The run's outcome for the request waiting on it: the new version, or the error to answer with, the same
// the request would have met running the steps itself (a fault is thrown as a plain error, which the route
// maps like any other). Undefined while the run is pending.
export async function readAiRunOutcome(
  db: Db,
  runId: string,
): Promise<{ ok: true; value: { id: string; version: number } } | { ok: false; error: Error } | undefined> {
  const [row] = await db
    .select({ status: aiRuns.status, result: aiRuns.result, error: aiRuns.error })
    .from(aiRuns)
    .where(eq(aiRuns.id, runId));
  // The row goes with its deck: deleted meanwhile, which is what the steps would have found.
  if (!row) return { ok: false, error: new AppError("not_found", "Deck not found.") };
  if (row.status === "completed" && row.result) return { ok: true, value: row.result };
  if (row.status === "failed" && row.error) {
    const failure = row.error as Failure;
    if (failure.fault) return { ok: false, error: faultError(failure.fault) };
    const code = isErrorCode(failure.code) ? failure.code : "internal";
    return { ok: false, error: new AppError(code, failure.message, { featureId: failure.featureId }) };
  }
  return undefined;
}

// The local runner starts a run at once, beside exports (a render never holds up a generation).
export const aiRunJob = defineJob({
  name: "ai-run",
  event: (runId, organizationId) => aiRequested.create({ runId, organizationId }),
  concurrency: 4,
  run: (runId) => runAiRun(runId),
});
