import { getDb } from "@/lib/db/client";
import { exportJob } from "@/lib/exports/export-job";
import { failUndeliverableExport } from "@/lib/exports/lease";
import { exportRequested, inngest } from "@/lib/jobs/inngest";

// Renders one export (lib/exports/export-job.ts). The export row's lease makes the step safe to retry
// (Inngest delivers at least once): a duplicate delivery finds the export claimed or finished and does
// nothing. At most 4 renders run at once, 2 per organization, so one organization's burst cannot hold
// every renderer. When Inngest gives up (the step threw on every retry), the export fails with the reason
// instead of staying pending.
export const renderExport = inngest.createFunction(
  {
    id: "render-export",
    retries: 3,
    concurrency: [{ limit: 4 }, { key: "event.data.organizationId", limit: 2 }],
    triggers: [exportRequested],
    onFailure: async ({ event, error }) => {
      const { exportId } = exportRequested.schema!.parse(event.data.event.data) as { exportId: string };
      const failed = await failUndeliverableExport(
        await getDb(),
        exportId,
        `The export could not be rendered: ${error.message}`,
      );
      return { exportId, failed };
    },
  },
  async ({ event, step }) => {
    const { exportId } = exportRequested.schema!.parse(event.data) as { exportId: string };
    const outcome = await step.run("render", () => exportJob.run(exportId));
    return { exportId, outcome };
  },
);
