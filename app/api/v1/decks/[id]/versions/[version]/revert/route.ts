import { json, withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { revertDeckVersion } from "@/lib/decks/deck-versions";
import { versionParams } from "@/lib/decks/schemas";

// POST /api/v1/decks/{id}/versions/{version}/revert — copy an earlier version forward as the newest
export const POST = withApiKey<{ id: string; version: string }>(async ({ params, ctx }) => {
  const { id, version } = readParams(params, versionParams);
  return json(await revertDeckVersion(ctx, id, version));
});
