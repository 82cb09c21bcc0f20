import { getDb } from "@/lib/db/client";
import { failAbandonedExports } from "@/lib/exports/lease";
import { processNextExport } from "@/lib/exports/process-export";

// The in-process job runner used when Inngest is not configured: it drains the exports queue with a
// small concurrency, is woken at once when work is queued in this process, and polls for work queued by
// other processes and for expired leases. One per process.

const POLL_MS = 2000;

class LocalRunner {
  private active = 0;
  private draining = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly concurrency: number) {}

  start() {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  kick() {
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    void this.drain().finally(() => {
      this.draining = false;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async drain() {
    try {
      await failAbandonedExports(await getDb());
      await Promise.all(Array.from({ length: this.concurrency - this.active }, () => this.work()));
    } catch (error) {
      console.error(JSON.stringify({ level: "error", component: "local-runner", message: String(error) }));
    }
  }

  private async work() {
    this.active += 1;
    try {
      while ((await processNextExport()) !== "none") {
        // keep going while there is work
      }
    } finally {
      this.active -= 1;
    }
  }
}

const holder = globalThis as typeof globalThis & { __deckhandRunner?: LocalRunner };

export function localRunner(): LocalRunner {
  holder.__deckhandRunner ??= new LocalRunner(Number(process.env.EXPORT_CONCURRENCY || 1));
  holder.__deckhandRunner.start();
  return holder.__deckhandRunner;
}

export function stopLocalRunner() {
  holder.__deckhandRunner?.stop();
  holder.__deckhandRunner = undefined;
}
