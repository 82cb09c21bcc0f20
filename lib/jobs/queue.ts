import { exportRequested, inngest, inngestConfigured } from "@/inngest/client";
import { localRunner } from "./local-runner";

// Hands a queued export to the configured transport: an Inngest event in production, the in-process
// runner otherwise. Either way the export row is already in the database, so a lost event or a
// restarted process only delays the work (the sweeps pick it up).
export async function enqueueExport(exportId: string): Promise<void> {
  if (inngestConfigured()) {
    await inngest.send(exportRequested.create({ exportId }));
    return;
  }
  localRunner().kick();
}
