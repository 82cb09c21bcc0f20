import { and, asc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import { exports } from "@/lib/db/schema/exports";
import type { Queryable } from "@/lib/db/types";
import type { ExportRow } from "./present";
import { setting } from "@/lib/core/config";

// The exports table is the work queue. A worker owns a running export while its lease (token + expiry,
// renewed by a heartbeat) is valid; an expired lease is reclaimed by the next worker, up to MAX_ATTEMPTS.
// Every state change after the claim is conditional on the worker's token, so a worker that lost its
// lease (paused, partitioned, killed and restarted) can never complete or fail the export a second time.

export const MAX_ATTEMPTS = 3;

export function leaseMs(): number {
  return setting("EXPORT_LEASE_MS");
}

const leaseExpiry = () => sql`now() + ${leaseMs()} * interval '1 millisecond'`;

const claimable = or(
  eq(exports.status, "pending"),
  and(eq(exports.status, "running"), lt(exports.leaseExpiresAt, sql`now()`)),
);

// Exports of the same organization rendering right now: the fair share of the queue.
const runningInSameOrganization = sql`(select count(*) from exports busy
  where busy.organization_id = ${exports.organizationId} and busy.status = 'running' and busy.lease_expires_at > now())`;

// Claims one export (the given one, or the next waiting) for the worker holding `token`. The next one is the
// oldest of the organization with the fewest exports rendering, so one organization's long queue (or its
// slow decks) cannot keep every worker from another organization's export.
export async function claimExport(db: Queryable, token: string, exportId?: string): Promise<ExportRow | null> {
  const candidate = db
    .select({ id: exports.id })
    .from(exports)
    .where(and(claimable, lt(exports.attempts, MAX_ATTEMPTS), exportId ? eq(exports.id, exportId) : undefined))
    .orderBy(runningInSameOrganization, asc(exports.createdAt))
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await db
    .update(exports)
    .set({
      status: "running",
      leaseToken: token,
      leaseExpiresAt: leaseExpiry(),
      attempts: sql`${exports.attempts} + 1`,
      error: null,
      updatedAt: sql`now()`,
    })
    .where(sql`${exports.id} = (${candidate})`)
    .returning();
  return row ?? null;
}

export async function renewLease(db: Queryable, id: string, token: string): Promise<boolean> {
  const rows = await db
    .update(exports)
    .set({ leaseExpiresAt: leaseExpiry() })
    .where(and(eq(exports.id, id), eq(exports.leaseToken, token), eq(exports.status, "running")))
    .returning({ id: exports.id });
  return rows.length > 0;
}

export async function completeExport(
  db: Queryable,
  id: string,
  token: string,
  result: { blobKey: string; nonstandardFonts: string[] },
): Promise<boolean> {
  const rows = await db
    .update(exports)
    .set({
      status: "completed",
      blobKey: result.blobKey,
      nonstandardFonts: result.nonstandardFonts,
      leaseToken: null,
      leaseExpiresAt: null,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(exports.id, id), eq(exports.leaseToken, token), eq(exports.status, "running")))
    .returning({ id: exports.id });
  return rows.length > 0;
}

// An export this worker cannot finish (the server is stopping) goes back to the queue at once, the
// attempt not counted: the next start or another instance takes it without waiting for the lease to end.
export async function releaseExport(db: Queryable, id: string, token: string): Promise<boolean> {
  const rows = await db
    .update(exports)
    .set({
      status: "pending",
      leaseToken: null,
      leaseExpiresAt: null,
      attempts: sql`greatest(${exports.attempts} - 1, 0)`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(exports.id, id), eq(exports.leaseToken, token), eq(exports.status, "running")))
    .returning({ id: exports.id });
  return rows.length > 0;
}

// A failure ends the export when it is final (the deck itself cannot render) or attempts are used up;
// otherwise the export goes back to the queue for another try. Answers false when the worker no longer
// held the lease (nothing changed).
export async function failExport(
  db: Queryable,
  id: string,
  token: string,
  error: string,
  final: boolean,
): Promise<boolean> {
  const rows = await db
    .update(exports)
    .set({
      status: sql`case when ${final} or ${exports.attempts} >= ${MAX_ATTEMPTS} then 'failed' else 'pending' end`,
      error: sql`case when ${final} or ${exports.attempts} >= ${MAX_ATTEMPTS} then ${error} else null end`,
      leaseToken: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(exports.id, id), eq(exports.leaseToken, token), eq(exports.status, "running")))
    .returning({ id: exports.id });
  return rows.length > 0;
}

// An export its transport gave up on (Inngest's retries used up): failed with the reason, unless it
// finished meanwhile. A worker still holding its lease can no longer complete it (completeExport checks
// status and token).
export async function failUndeliverableExport(db: Queryable, id: string, error: string): Promise<boolean> {
  const rows = await db
    .update(exports)
    .set({ status: "failed", error, leaseToken: null, leaseExpiresAt: null, updatedAt: sql`now()` })
    .where(and(eq(exports.id, id), inArray(exports.status, ["pending", "running"])))
    .returning({ id: exports.id });
  return rows.length > 0;
}

// Exports whose renderer died on every attempt: failed, never left running.
export async function failAbandonedExports(db: Queryable): Promise<number> {
  const rows = await db
    .update(exports)
    .set({
      status: "failed",
      error: `The renderer stopped responding ${MAX_ATTEMPTS} times; the export was abandoned.`,
      leaseToken: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(
      and(eq(exports.status, "running"), lt(exports.leaseExpiresAt, sql`now()`), gte(exports.attempts, MAX_ATTEMPTS)),
    )
    .returning({ id: exports.id });
  return rows.length;
}

// Exports a transport should deliver again: waiting longer than a delivery takes (its event was lost), or
// running under an expired lease (its worker died), with attempts left. At most 100 per sweep.
export async function findStalledExports(db: Queryable): Promise<{ id: string; organizationId: string }[]> {
  return db
    .select({ id: exports.id, organizationId: exports.organizationId })
    .from(exports)
    .where(
      and(
        lt(exports.attempts, MAX_ATTEMPTS),
        sql`(${eq(exports.status, "pending")} and ${lt(exports.updatedAt, sql`now() - interval '2 minutes'`)})
            or (${eq(exports.status, "running")} and ${lt(exports.leaseExpiresAt, sql`now()`)})`,
      ),
    )
    .limit(100);
}
