import { exportJob } from "@/lib/exports/export-job";
import { exportRequested, inngest } from "@/lib/jobs/inngest";

// Renders one export (lib/exports/export-job.ts). The export row's lease makes the step safe to retry
// (Inngest delivers at least once): a duplicate delivery finds the export claimed or finished and does nothing.
export const renderExport = inngest.createFunction(
  { id: "render-export", retries: 3, concurrency: { limit: 4 }, triggers: [exportRequested] },
  async ({ event, step }) => {
    const { exportId } = exportRequested.schema!.parse(event.data) as { exportId: string };
    const outcome = await step.run("render", () => exportJob.run(exportId));
    return { exportId, outcome };
  },
);
