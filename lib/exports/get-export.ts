import { eq } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/auth/caller";
import { exports } from "@/lib/db/schema/exports";
import { getReadableDeck } from "@/lib/decks/access";
import { getFileStore } from "@/lib/storage/storage";
import { presentExport, type ExportRow } from "./present";

function exportNotFound(): AppError {
  return new AppError("not_found", "Export not found.");
}

// An export is visible to whoever may read its deck in the export's organization.
async function findReadableExport(ctx: Ctx, id: string): Promise<ExportRow> {
  const [row] = await ctx.db.select().from(exports).where(eq(exports.id, id)).limit(1);
  if (!row || row.organizationId !== ctx.caller.organizationId) throw exportNotFound();
  await getReadableDeck(ctx, row.deckId);
  return row;
}

// GET /exports/{id}
export async function getExport(ctx: Ctx, id: string) {
  return presentExport(await findReadableExport(ctx, id));
}

// GET /exports/{id}/download: a short-lived URL of the file, for the credential that asked for it only.
export async function getExportDownloadUrl(ctx: Ctx, id: string): Promise<string> {
  const row = await findReadableExport(ctx, id);
  const sameRequester = ctx.caller.apiKeyId
    ? row.requestedByKeyId === ctx.caller.apiKeyId
    : row.requestedByKeyId === null && row.requestedByUserId === ctx.caller.userId;
  if (!sameRequester) {
    throw new AppError("forbidden", "Only the API key that requested this export can download it.");
  }
  if (row.status !== "completed" || !row.blobKey) {
    const state = row.status === "failed" ? `failed: ${row.error ?? "unknown error"}` : `is ${row.status}`;
    throw new AppError(
      "conflict",
      `The export ${state}; call get_export (GET /exports/${row.id}) until its status is 'completed'.`,
    );
  }
  return getFileStore().downloadUrl(row.blobKey, row.fileName ?? `export.${row.format}`);
}
