import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import type { Db } from "@/lib/db/types";
import { getFileStore } from "@/lib/storage/storage";
import { findDeckVersion, type ViewableDeck } from "@/lib/viewer/viewable-deck";
import { claimExport, completeExport, failExport, leaseMs, releaseExport, renewLease } from "./lease";
import type { ExportRow } from "./present";
import { DeckFaultError } from "@/lib/render/browser";
import { renderPdf, renderPdfAndPptx, renderPptx, type RenderedExport } from "./render-export";
import { logger } from "@/lib/core/log";

const contentTypes = {
  pdf: "application/pdf",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
} as const;

type Outcome = "completed" | "failed" | "lost";
type Claim = { row: ExportRow; token: string };

// The claims this process is rendering now, handed back when the server stops before they finish. One set
// per process, kept on globalThis: Next.js bundles this module once for the routes that queue and run
// exports (the local runner runs the copy that queued last, Inngest its route's) and once for
// instrumentation, whose copy hands them back at the stop.
const holder = globalThis as typeof globalThis & { __deckhandRunningExports?: Set<Claim> };
const running = (holder.__deckhandRunningExports ??= new Set<Claim>());
const log = logger("exports");

/** Hands back to the queue every export this process still renders (at shutdown); answers how many. */
export async function releaseRunningExports(): Promise<number> {
  const db = await getDb();
  let released = 0;
  for (const claim of [...running]) {
    if (!(await releaseExport(db, claim.row.id, claim.token).catch(() => false))) continue;
    released += 1;
    log.info("export.released", { exportId: claim.row.id });
  }
  return released;
}

// A PDF (slides layout) and a PPTX of the same version that wait together are drawn once: the worker that
// claimed one claims the other too when it is still pending (the same claim, so its lease and attempts
// work as for any export), prints the PDF, then walks the same page for the PPTX (render-export.ts). Each
// claim ends by its own result: a PPTX that fails leaves the PDF completed.
async function claimPartner(db: Db, row: ExportRow): Promise<Claim | null> {
  if (row.layout !== "slides") return null;
  const [waiting] = await db
    .select({ id: exports.id })
    .from(exports)
    .where(
      and(
        eq(exports.deckId, row.deckId),
        eq(exports.version, row.version),
        eq(exports.format, row.format === "pdf" ? "pptx" : "pdf"),
        eq(exports.layout, "slides"),
        eq(exports.status, "pending"),
      ),
    )
    .orderBy(asc(exports.createdAt))
    .limit(1);
  if (!waiting) return null;
  const token = randomUUID();
  const partner = await claimExport(db, token, waiting.id);
  return partner ? { row: partner, token } : null;
}

/** Each claim's file, or the error that claim alone fails with. */
type Result = RenderedExport | Error;

async function render(viewable: ViewableDeck, claims: Claim[]): Promise<Result[]> {
  if (claims.length === 2) {
    const { pdf, pptx } = await renderPdfAndPptx(viewable);
    return claims.map((claim) => (claim.row.format === "pdf" ? pdf : pptx));
  }
  const { row } = claims[0]!;
  return [row.format === "pdf" ? await renderPdf(viewable, row.layout) : await renderPptx(viewable)];
}

// What the deck caused is the caller's to read and final; infrastructure failures are logged, not shown,
// and retried.
async function fail(db: Db, { row, token }: Claim, error: unknown, started: number): Promise<Outcome> {
  const message = error instanceof Error ? error.message : String(error);
  const deckFault = error instanceof DeckFaultError;
  const shown = deckFault ? message : "The export could not be rendered; request it again.";
  // A claim handed back meanwhile (the server is stopping and closed the browser under it) is no longer
  // this worker's to fail.
  const failed = await failExport(db, row.id, token, shown, deckFault);
  log.info(failed ? "export.failed" : "export.lease_lost", {
    exportId: row.id,
    ms: Date.now() - started,
    error: message,
  });
  return failed ? "failed" : "lost";
}

async function finish(db: Db, claim: Claim, result: RenderedExport, started: number): Promise<Outcome> {
  const { row, token } = claim;
  try {
    const blobKey = await getFileStore().put(`exports/${row.id}.${row.format}`, result.data, contentTypes[row.format]);
    const completed = await completeExport(db, row.id, token, { blobKey, nonstandardFonts: result.nonstandardFonts });
    log.info(completed ? "export.completed" : "export.lease_lost", {
      exportId: row.id,
      ms: Date.now() - started,
      bytes: result.data.length,
    });
    return completed ? "completed" : "lost";
  } catch (error) {
    return fail(db, claim, error, started);
  }
}

// The one domain step both job transports run: render a claimed export (with its partner of the other
// format, if one waits), store the file, and complete it if this worker still holds the lease. The file's
// key is the export's id, so a retry overwrites rather than duplicates.
async function runClaimedExport(db: Db, row: ExportRow, token: string): Promise<Outcome> {
  const claims: Claim[] = [{ row, token }];
  const partner = await claimPartner(db, row).catch(() => null);
  if (partner) claims.push(partner);
  const started = Date.now();
  for (const claim of claims) running.add(claim);
  const heartbeats = claims.map((claim) => {
    log.info("export.claimed", {
      exportId: claim.row.id,
      format: claim.row.format,
      attempt: claim.row.attempts,
      ...(claims.length > 1 ? { drawnWith: claims.find((other) => other !== claim)!.row.id } : {}),
    });
    const timer = setInterval(
      () => void renewLease(db, claim.row.id, claim.token).catch(() => {}),
      Math.max(500, leaseMs() / 3),
    );
    timer.unref();
    return timer;
  });
  try {
    let results: Result[];
    try {
      const viewable = await findDeckVersion(db, row.deckId, row.version);
      if (!viewable) throw new DeckFaultError(`Version ${row.version} of the deck no longer exists.`);
      results = await render(viewable, claims);
    } catch (error) {
      const outcomes = await Promise.all(claims.map((claim) => fail(db, claim, error, started)));
      return outcomes[0]!;
    }
    const outcomes = await Promise.all(
      claims.map((claim, n) => {
        const result = results[n]!;
        return result instanceof Error ? fail(db, claim, result, started) : finish(db, claim, result, started);
      }),
    );
    return outcomes[0]!;
  } finally {
    for (const timer of heartbeats) clearInterval(timer);
    for (const claim of claims) running.delete(claim);
  }
}

// Claims and runs one export: the given one (Inngest) or the oldest waiting (the local runner).
export async function processNextExport(exportId?: string): Promise<Outcome | "none"> {
  const db = await getDb();
  const token = randomUUID();
  const row = await claimExport(db, token, exportId);
  if (!row) return "none";
  return runClaimedExport(db, row, token);
}
