import { and, eq, lt, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { exports } from "@/lib/db/schema/exports";
import { failAbandonedExports, MAX_ATTEMPTS } from "@/lib/exports/lease";
import { exportRequested, inngest } from "../client";

// Every minute: fail exports whose renderer died on every attempt, and re-send the event for exports
// whose lease expired (their worker died) or that waited too long, so nothing stays pending or running.
export const sweepExports = inngest.createFunction(
  { id: "sweep-exports", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const failed = await step.run("fail-abandoned", async () => failAbandonedExports(await getDb()));
    const stalled = await step.run("find-stalled", async () => {
      const db = await getDb();
      const rows = await db
        .select({ id: exports.id })
        .from(exports)
        .where(
          and(
            lt(exports.attempts, MAX_ATTEMPTS),
            sql`(${eq(exports.status, "pending")} and ${lt(exports.updatedAt, sql`now() - interval '2 minutes'`)})
            or (${eq(exports.status, "running")} and ${lt(exports.leaseExpiresAt, sql`now()`)})`,
          ),
        )
        .limit(100);
      return rows.map((row) => row.id);
    });
    if (stalled.length > 0) {
      await step.sendEvent(
        "retry-stalled",
        stalled.map((exportId: string) => exportRequested.create({ exportId })),
      );
    }
    return { failed, retried: stalled.length };
  },
);
