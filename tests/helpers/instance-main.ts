import { register } from "@/instrumentation";
import { startAppServer } from "./app-server";

// One app instance in a process of its own (run by ./instances.ts with tsx): what `next start` does at
// start-up (instrumentation.ts: check the settings, start the local runner unless Inngest is configured),
// then the app's route handlers on PORT. It prints its origin once it answers.
process.env.NEXT_RUNTIME = "nodejs";
await register();
const server = await startAppServer(Number(process.env.PORT));
console.log(`listening ${server.origin}`);

// Stopped like a server: stop taking work and leave (what the runner holds is reclaimed by its lease).
process.once("SIGTERM", () => {
  void (async () => {
    const { stopLocalRunner } = await import("@/lib/jobs/local-runner");
    const { closeRenderBrowser } = await import("@/lib/render/browser");
    stopLocalRunner();
    await Promise.race([Promise.all([server.close(), closeRenderBrowser()]), new Promise((r) => setTimeout(r, 5000))]);
    process.exit(0);
  })();
});
