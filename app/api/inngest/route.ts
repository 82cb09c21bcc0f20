import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

// /api/inngest — where Inngest (Cloud or the dev server) invokes Deckhand's background functions
export const { GET, POST, PUT } = serve({ client: inngest, functions });
