// What `register` (instrumentation.ts) does in the Node.js runtime, in a module of its own so that the
// Edge build never sees Node's APIs (process.exit): check every setting (a bad value stops the server with
// a message naming the variable, rather than failing someone's request later); open (and migrate) the
// embedded database before the first request, so a locked or broken data folder is reported at start-up;
// and, without Inngest, start the in-process job runner with the jobs it polls, so exports queued before a
// restart (or by another process) are picked up. The composition root: the one place that names the jobs.
import { config, configProblems } from "@/lib/core/config";

export async function registerNode() {
  const problems = configProblems();
  if (problems.length > 0) {
    console.error(
      `Deckhand cannot start: the configuration has errors.\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    process.exit(1);
  }
  if (!config.databaseUrl) {
    const { getDatabase } = await import("@/lib/db/client");
    await getDatabase();
  }
  if (!config.inngestConfigured) {
    const { startLocalRunner } = await import("@/lib/jobs/local-runner");
    const { exportJob } = await import("@/lib/exports/export-job");
    startLocalRunner([exportJob]);
  }
}
