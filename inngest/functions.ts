import { authorDeck } from "./functions/author-deck";
import { renderExport } from "./functions/render-export";
import { sweepExports } from "./functions/sweep-exports";

// Every Inngest function the app serves (app/api/inngest/route.ts).
export const functions = [renderExport, sweepExports, authorDeck];
