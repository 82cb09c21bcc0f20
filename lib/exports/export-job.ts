import { config } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { exportRequested } from "@/lib/jobs/inngest";
import { defineJob } from "@/lib/jobs/job";
import { failAbandonedExports } from "./lease";
import { processNextExport } from "./process-export";

// Rendering exports as a job. The exports table is the queue: Inngest delivers "render export X" and the
// worker claims that row; the local runner's workers claim whichever export is next in the queue's fair
// order, and its sweep fails exports whose renderer died on every attempt.
export const exportJob = defineJob({
  name: "render-export",
  event: (exportId, organizationId) => exportRequested.create({ exportId, organizationId }),
  concurrency: () => config.exportConcurrency,
  run: (exportId) => processNextExport(exportId),
  next: () => processNextExport(),
  sweep: async () => {
    await failAbandonedExports(await getDb());
  },
});
