import { eventType, Inngest } from "inngest";
import { z } from "zod";
import { setting } from "@/lib/core/config";

// The Inngest client and the events Deckhand sends. Used when INNGEST_EVENT_KEY (Inngest Cloud) or
// INNGEST_DEV (a local dev server) is set (`config.inngestConfigured`); otherwise the local runner
// (./local-runner.ts) runs the same jobs in this process. Each event names one row; the function that
// receives it validates the payload again, and carries the row's organization, the key its function's
// per-organization concurrency limit counts by. Outside dev mode (INNGEST_DEV), /api/inngest runs nothing
// that INNGEST_SIGNING_KEY did not sign: the SDK answers 401 to a request without a valid signature.
export const inngest = new Inngest({
  id: "deckhand",
  eventKey: setting("INNGEST_EVENT_KEY"),
  signingKey: setting("INNGEST_SIGNING_KEY"),
});

const organizationId = z.guid().optional();

// One export row to render.
export const exportRequested = eventType("deckhand/export.requested", {
  schema: z.object({ exportId: z.guid(), organizationId }),
});

// One generate or edit request recorded in ai_runs; the function writes the outcome back to that row.
export const aiRequested = eventType("deckhand/ai.requested", {
  schema: z.object({ runId: z.guid(), organizationId }),
});
