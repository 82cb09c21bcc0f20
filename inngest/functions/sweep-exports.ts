import { getDb } from "@/lib/db/client";
import { exportJob } from "@/lib/exports/export-job";
import { failAbandonedExports, findStalledExports } from "@/lib/exports/lease";
import { inngest } from "@/lib/jobs/inngest";

// Every minute: fail exports whose renderer died on every attempt, and re-send the event for exports
// whose lease expired (their worker died) or that waited too long, so nothing stays pending or running.
export const sweepExports = inngest.createFunction(
  { id: "sweep-exports", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const failed = await step.run("fail-abandoned", async () => failAbandonedExports(await getDb()));
    const stalled = await step.run("find-stalled", async () => findStalledExports(await getDb()));
    if (stalled.length > 0) {
      await step.sendEvent(
        "retry-stalled",
        stalled.map((row) => exportJob.event(row.id, row.organizationId)),
      );
    }
    return { failed, retried: stalled.length };
  },
);
