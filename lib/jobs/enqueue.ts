import { config } from "@/lib/core/config";
import type { Job } from "./job";
import { inngest } from "./inngest";
import { localRunner } from "./local-runner";

// Hands one run of a job to the configured transport: the job's Inngest event in production, a wake-up of
// the in-process runner otherwise. The caller has already written the job's row, so a lost event or a
// restarted process only delays the work (the sweeps pick it up) or, for a request waiting on the row,
// ends in that request's timeout.
export async function enqueue(job: Job, id: string, organizationId?: string): Promise<void> {
  if (config.inngestConfigured) {
    await inngest.send(job.event(id, organizationId));
    return;
  }
  localRunner().kick(job, id);
}
