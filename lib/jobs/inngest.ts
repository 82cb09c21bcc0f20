import { eventType, Inngest } from "inngest";
import { z } from "zod";

// The Inngest client and the events Deckhand sends. Used when INNGEST_EVENT_KEY (Inngest Cloud) or
// INNGEST_DEV (a local dev server) is set (`config.inngestConfigured`); otherwise the local runner
// (./local-runner.ts) runs the same jobs in this process. Each event names one row; the function that
// receives it validates the payload again.
export const inngest = new Inngest({ id: "deckhand" });

// One export row to render.
export const exportRequested = eventType("deckhand/export.requested", {
  schema: z.object({ exportId: z.guid() }),
});

// One generate or edit request recorded in ai_runs; the function writes the outcome back to that row.
export const aiRequested = eventType("deckhand/ai.requested", {
  schema: z.object({ runId: z.guid() }),
});
