import { serve } from "inngest/next";
import { functions } from "@/inngest/functions";
import { inngest } from "@/lib/jobs/inngest";

// /api/inngest — where Inngest (Cloud or the dev server) invokes Deckhand's background functions
export const { GET, POST, PUT } = serve({ client: inngest, functions });
