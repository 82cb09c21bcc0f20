import { getDb } from "@/lib/db/client";
import { failAbandonedExports } from "@/lib/exports/lease";
import { processNextExport } from "@/lib/exports/process-export";
import { setting } from "@/lib/core/config";

// The in-process job runner used when Inngest is not configured: it drains the exports queue with a
// small concurrency (EXPORT_CONCURRENCY, 2), is woken at once when work is queued in this process, and
// polls for work queued by other processes and for expired leases. One per process.

const POLL_MS = 2000;

class LocalRunner {
  private active = 0;
  // Bumped by every kick: a worker that found nothing to do looks again if work was queued meanwhile.
  private wakeups = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly concurrency: number) {}

  start() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void getDb()
        .then(failAbandonedExports)
        .catch((error: unknown) => log(error))
        .finally(() => this.kick());
    }, POLL_MS);
    this.timer.unref();
    this.kick();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  // Starts workers up to the concurrency; none waits for another, so a long render holds one worker only.
  kick() {
    this.wakeups += 1;
    while (this.active < this.concurrency) void this.work();
  }

  private async work() {
    this.active += 1;
    try {
      for (;;) {
        const seen = this.wakeups;
        if ((await processNextExport()) === "none" && this.wakeups === seen) break;
      }
    } catch (error) {
      log(error);
    } finally {
      this.active -= 1;
    }
  }
}

function log(error: unknown) {
  console.error(JSON.stringify({ level: "error", component: "local-runner", message: String(error) }));
}

const holder = globalThis as typeof globalThis & { __deckhandRunner?: LocalRunner };

export function localRunner(): LocalRunner {
  holder.__deckhandRunner ??= new LocalRunner(setting("EXPORT_CONCURRENCY"));
  holder.__deckhandRunner.start();
  return holder.__deckhandRunner;
}

export function stopLocalRunner() {
  holder.__deckhandRunner?.stop();
  holder.__deckhandRunner = undefined;
}
