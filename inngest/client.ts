import { eventType, Inngest } from "inngest";
import { z } from "zod";
import { config } from "@/lib/core/config";

// The Inngest client and the events Deckhand sends. Used when INNGEST_EVENT_KEY (Inngest Cloud) or
// INNGEST_DEV (a local dev server) is set; otherwise lib/jobs/local-runner.ts does the same work.
export const inngest = new Inngest({ id: "deckhand" });

// One export row to render; the payload is validated again when the function runs.
export const exportRequested = eventType("deckhand/export.requested", {
  schema: z.object({ exportId: z.guid() }),
});

export function inngestConfigured(): boolean {
  return config.inngestConfigured;
}

// One generate or edit request recorded in ai_runs; the function writes the outcome back to that row.
export const aiRequested = eventType("deckhand/ai.requested", {
  schema: z.object({ runId: z.guid() }),
});
