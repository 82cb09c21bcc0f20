import { json, withApiKey } from "@/lib/api/handler";
import { readJsonBody, readParams } from "@/lib/api/input";
import { deckParams } from "@/lib/decks/schemas";
import { createExport } from "@/lib/exports/create-export";
import { createExportBody } from "@/lib/exports/schemas";

// POST /api/v1/decks/{id}/exports — queue a PDF or PPTX render of a version (default the newest)
export const POST = withApiKey<{ id: string }>(async ({ req, params, ctx }) => {
  const { id } = readParams(params, deckParams);
  return json(await createExport(ctx, id, await readJsonBody(req, createExportBody)), 202);
});
