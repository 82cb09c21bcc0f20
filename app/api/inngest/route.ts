import { serve } from "inngest/next";
import { functions } from "@/inngest/functions";
import { inngest } from "@/lib/jobs/inngest";

// /api/inngest — where Inngest (Cloud or the dev server) invokes Deckhand's background functions. Outside
// dev mode only requests signed with INNGEST_SIGNING_KEY run (lib/jobs/inngest.ts).
export const { GET, POST, PUT } = serve({ client: inngest, functions });

// One call runs one step: an export's render (EXPORT_TIMEOUT_MS, 120 s, plus a cold Chromium) or a model call.
export const maxDuration = 300;
