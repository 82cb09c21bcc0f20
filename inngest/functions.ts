import { authorDeck } from "./functions/author-deck";
import { renderExport } from "./functions/render-export";
import { sweepExports } from "./functions/sweep-exports";

// Every Inngest function the app serves (app/api/inngest/route.ts): thin adapters around the jobs their
// domains define (lib/exports/export-job.ts, lib/ai/ai-run-job.ts); the client is lib/jobs/inngest.ts.
export const functions = [renderExport, sweepExports, authorDeck];
