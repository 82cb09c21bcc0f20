import { json, withApiKey } from "@/lib/api/handler";
import { readParams } from "@/lib/api/input";
import { getExport } from "@/lib/exports/get-export";
import { exportParams } from "@/lib/exports/schemas";

// GET /api/v1/exports/{id} — an export's status; poll until 'completed'
export const GET = withApiKey<{ id: string }>(async ({ params, ctx }) =>
  json(await getExport(ctx, readParams(params, exportParams).id)),
);
