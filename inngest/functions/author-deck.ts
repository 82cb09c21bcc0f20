import { runAiRun } from "@/lib/ai/ai-run-job";
import { aiRequested, inngest } from "@/lib/jobs/inngest";

// generate / edit on Inngest: the AI run job (lib/ai/ai-run-job.ts) with each step durable. A refusal
// (422, 402, 409, ai_failed) is recorded on the run; anything else is thrown, and Inngest retries it.
// Once per run: Inngest drops a second event for the same run id (idempotency), and a run that already
// has an outcome answers it without authoring again. At most 4 runs at once per organization.
export const authorDeck = inngest.createFunction(
  {
    id: "author-deck",
    retries: 2,
    idempotency: "event.data.runId",
    concurrency: { key: "event.data.organizationId", limit: 4 },
    triggers: [aiRequested],
  },
  async ({ event, step }) => {
    const { runId } = aiRequested.schema!.parse(event.data) as { runId: string };
    return runAiRun(runId, { step: (name, work) => step.run(name, work), retried: true });
  },
);
