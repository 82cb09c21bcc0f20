import { json, withApiKey } from "@/lib/api/handler";
import { buildAuthoringBrief } from "@/lib/deck/instructions";

// GET /api/v1/instructions — the authoring brief, generated from the vocabulary
export const GET = withApiKey(async () => json({ instructions: buildAuthoringBrief() }));
