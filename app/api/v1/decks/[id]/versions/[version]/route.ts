import { json, withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { getDeckVersion } from "@/lib/decks/deck-versions";
import { versionParams } from "@/lib/decks/schemas";

// GET /api/v1/decks/{id}/versions/{version} — one version with its full content
export const GET = withApiKey<{ id: string; version: string }>(async ({ params, ctx }) => {
  const { id, version } = readParams(params, versionParams);
  return json(await getDeckVersion(ctx, id, version));
});
