import type { Job } from "./job";
import { logger } from "@/lib/core/log";

// The in-process job runner used when Inngest is not configured. Each job has its own lane with its own
// concurrency (exports: EXPORT_CONCURRENCY, by default sized to the machine), so a long render never holds up a generation; a lane's
// workers never wait for each other. `enqueue` wakes a lane at once; every 2 s the runner sweeps and polls
// the lanes of jobs that claim their own work, for work queued by other processes or left by a worker
// that died. One per process.

const POLL_MS = 2000;
const log = logger("local-runner");

type Lane = {
  job: Job;
  active: number;
  // Bumped by every kick: a worker that found nothing to do looks again if work was queued meanwhile.
  wakeups: number;
  // Ids to run, for jobs that do not claim their own work.
  queue: string[];
};

class LocalRunner {
  private readonly lanes = new Map<string, Lane>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private draining = false;

  // Polls the given jobs from now on (and any job enqueued later that claims its own work).
  start(jobs: Job[] = []) {
    for (const job of jobs) this.lane(job);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), POLL_MS);
      this.timer.unref();
    }
    for (const job of jobs) this.kick(job);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops taking work and waits until every worker has finished what it holds, or until the deadline. */
  async drain(deadline: number): Promise<{ unfinished: number }> {
    this.stop();
    this.draining = true;
    const active = () => [...this.lanes.values()].reduce((sum, lane) => sum + lane.active, 0);
    while (active() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    return { unfinished: active() };
  }

  // Starts workers up to the job's concurrency; the id is queued unless the job claims its own work.
  kick(job: Job, id?: string) {
    const lane = this.lane(job);
    if (this.draining) return; // queued work stays in the database for the next start or another instance
    if (id !== undefined && !job.next) lane.queue.push(id);
    lane.wakeups += 1;
    // Counted before starting any: a worker with nothing to do ends at once, without ever waiting.
    const idle = Math.max(1, lane.job.concurrency()) - lane.active;
    const wanted = lane.job.next ? idle : Math.min(idle, lane.queue.length);
    for (let n = 0; n < wanted; n++) void this.work(lane);
  }

  // Keyed by name, and the newest definition kept: a module reloaded in development defines its jobs again.
  private lane(job: Job): Lane {
    let lane = this.lanes.get(job.name);
    if (!lane) {
      lane = { job, active: 0, wakeups: 0, queue: [] };
      this.lanes.set(job.name, lane);
    }
    lane.job = job;
    return lane;
  }

  private async poll() {
    // A slow database must not pile sweeps on top of each other.
    if (this.polling) return;
    this.polling = true;
    try {
      for (const lane of this.lanes.values()) {
        const { job } = lane;
        if (job.sweep)
          await job.sweep().catch((error: unknown) => log.error("a sweep failed", { job: job.name, error }));
        if (job.next) this.kick(job);
      }
    } finally {
      this.polling = false;
    }
  }

  private async work(lane: Lane) {
    lane.active += 1;
    try {
      for (;;) {
        if (this.draining) break;
        const id = lane.queue.shift();
        if (id !== undefined) {
          // One run's failure is its own; the worker goes on with the rest of the queue.
          await lane.job
            .run(id)
            .catch((error: unknown) => log.error("a job failed", { job: lane.job.name, id, error }));
          continue;
        }
        if (!lane.job.next) break;
        // A worker past the lane's concurrency (it was lowered meanwhile) claims nothing more.
        if (lane.active > Math.max(1, lane.job.concurrency())) break;
        const seen = lane.wakeups;
        if ((await lane.job.next()) === "none" && lane.wakeups === seen) break;
      }
    } catch (error) {
      // A claim that fails (say, the database is down) ends the worker; the next poll starts another.
      log.error("a claim failed", { job: lane.job.name, error });
    } finally {
      lane.active -= 1;
    }
  }
}

const holder = globalThis as typeof globalThis & { __deckhandRunner?: LocalRunner };

// The process's runner, started on first use, so work enqueued here is polled for too.
export function localRunner(): LocalRunner {
  holder.__deckhandRunner ??= new LocalRunner();
  holder.__deckhandRunner.start();
  return holder.__deckhandRunner;
}

// At server start (instrumentation.ts): poll the given jobs for work queued before a restart.
export function startLocalRunner(jobs: Job[]): LocalRunner {
  const runner = localRunner();
  runner.start(jobs);
  return runner;
}

export function stopLocalRunner() {
  holder.__deckhandRunner?.stop();
  holder.__deckhandRunner = undefined;
}
