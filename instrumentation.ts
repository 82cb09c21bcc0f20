// Runs once when the server starts: open (and migrate) the embedded database before the first request,
// so a locked or broken data folder is reported at start-up rather than on someone's API call; and start
// the in-process job runner (without Inngest) so exports queued before a restart are picked up.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (!process.env.DATABASE_URL) {
    const { getDatabase } = await import("@/lib/db/client");
    await getDatabase();
  }
  const { inngestConfigured } = await import("@/inngest/client");
  if (!inngestConfigured()) {
    const { localRunner } = await import("@/lib/jobs/local-runner");
    localRunner();
  }
}
