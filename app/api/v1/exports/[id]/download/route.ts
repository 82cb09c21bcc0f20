import { withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { getExportDownloadUrl } from "@/lib/exports/get-export";
import { exportParams } from "@/lib/exports/schemas";

// GET /api/v1/exports/{id}/download — 302 to a short-lived link of the file (the requesting key only)
export const GET = withApiKey<{ id: string }>(async ({ params, ctx }) => {
  const url = await getExportDownloadUrl(ctx, readParams(params, exportParams).id);
  return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "no-store" } });
});
