// What `register` (instrumentation.ts) does in the Node.js runtime, in a module of its own so that the
// Edge build never sees Node's APIs (process.exit): check every setting (a bad value stops the server with
// a message naming the variable, rather than failing someone's request later); stamp each request with its
// socket's address (lib/net/client-address.ts: route handlers cannot see the socket); open (and migrate) the
// embedded database before the first request, so a locked or broken data folder is reported at start-up;
// sweep the temporary files of writes a killed process left in the local file store;
// without Inngest, start the in-process job runner with the jobs it polls, so exports queued before a
// restart (or by another process) are picked up; and install the graceful stop. The composition root: the
// one place that names the jobs and the order things stop in.
import { config, configProblems } from "@/lib/core/config";
import { stampPeerAddresses } from "@/lib/net/client-address";

export async function registerNode() {
  const problems = configProblems();
  if (problems.length > 0) {
    console.error(
      `Deckhand cannot start: the configuration has errors.\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    process.exit(1);
  }
  stampPeerAddresses();
  if (!config.databaseUrl) {
    const { getDatabase } = await import("@/lib/db/client");
    await getDatabase();
  }
  const { localFileStore } = await import("@/lib/storage/storage");
  void localFileStore()?.sweepTemporaryFiles();
  const runner = config.inngestConfigured
    ? null
    : await (async () => {
        const { startLocalRunner } = await import("@/lib/jobs/local-runner");
        const { exportJob } = await import("@/lib/exports/export-job");
        return startLocalRunner([exportJob]);
      })();
  // A serverless platform stops its functions itself; a server stops gracefully on SIGTERM and SIGINT.
  if (!config.serverless) await installGracefulStop(runner);
}

// What a stopping server does, in order, within SHUTDOWN_GRACE_MS: stop taking exports and let those in
// flight finish; hand back to the queue those that could not; wait for the requests in flight (Next.js
// drains them); then close the browser, the worker threads and the database.
async function installGracefulStop(runner: { drain: (deadline: number) => Promise<unknown> } | null) {
  const { installShutdown, onShutdown, requestsDrained } = await import("@/lib/core/shutdown");
  const { setting } = await import("@/lib/core/config");
  const { releaseRunningExports } = await import("@/lib/exports/process-export");
  const { closeRenderBrowser } = await import("@/lib/render/browser");
  const { closeWorkerPools } = await import("@/lib/core/worker-pool");
  const { closeDatabase } = await import("@/lib/db/client");
  if (runner) onShutdown("exports", async (deadline) => void (await runner.drain(deadline)));
  onShutdown("leases", async () => void (await releaseRunningExports()));
  onShutdown("requests", requestsDrained);
  onShutdown("browser", closeRenderBrowser);
  onShutdown("workers", closeWorkerPools);
  onShutdown("database", closeDatabase);
  installShutdown(setting("SHUTDOWN_GRACE_MS"));
}
