import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import { getFileStore } from "@/lib/storage/storage";
import { findDeckVersion } from "@/lib/viewer/viewable-deck";
import { claimExport, completeExport, failExport, leaseMs, renewLease } from "./lease";
import type { ExportRow } from "./present";
import { DeckFaultError } from "@/lib/render/browser";
import { renderPdf, renderPptx } from "./render-export";

const contentTypes = {
  pdf: "application/pdf",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
} as const;

function log(fields: Record<string, unknown>) {
  console.log(JSON.stringify({ level: "info", component: "exports", ...fields }));
}

// The one domain step both job transports run: render a claimed export, store the file, and complete it
// if this worker still holds the lease. The file's key is the export's id, so a retry overwrites
// rather than duplicates.
export async function runClaimedExport(
  db: Db,
  row: ExportRow,
  token: string,
): Promise<"completed" | "failed" | "lost"> {
  log({ event: "export.claimed", exportId: row.id, format: row.format, attempt: row.attempts });
  const heartbeat = setInterval(() => void renewLease(db, row.id, token).catch(() => {}), Math.max(500, leaseMs() / 3));
  heartbeat.unref();
  const started = Date.now();
  try {
    const viewable = await findDeckVersion(db, row.deckId, row.version);
    if (!viewable) throw new DeckFaultError(`Version ${row.version} of the deck no longer exists.`);
    const result = row.format === "pdf" ? await renderPdf(viewable, row.layout) : await renderPptx(viewable);
    const blobKey = await getFileStore().put(`exports/${row.id}.${row.format}`, result.data, contentTypes[row.format]);
    const completed = await completeExport(db, row.id, token, { blobKey, nonstandardFonts: result.nonstandardFonts });
    log({
      event: completed ? "export.completed" : "export.lease_lost",
      exportId: row.id,
      ms: Date.now() - started,
      bytes: result.data.length,
    });
    return completed ? "completed" : "lost";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // What the deck caused is the caller's to read and final; infrastructure failures are logged, not
    // shown, and retried.
    const deckFault = error instanceof DeckFaultError;
    const shown = deckFault ? message : "The export could not be rendered; request it again.";
    await failExport(db, row.id, token, shown, deckFault);
    log({ event: "export.failed", exportId: row.id, ms: Date.now() - started, error: message });
    return "failed";
  } finally {
    clearInterval(heartbeat);
  }
}

// Claims and runs one export: the given one (Inngest) or the oldest waiting (the local runner).
export async function processNextExport(exportId?: string): Promise<"completed" | "failed" | "lost" | "none"> {
  const db = await getDb();
  const token = randomUUID();
  const row = await claimExport(db, token, exportId);
  if (!row) return "none";
  return runClaimedExport(db, row, token);
}
