import { logger } from "./log";

// A graceful stop on SIGTERM and SIGINT. The steps registered here run in order, each given the deadline
// of the grace period (SHUTDOWN_GRACE_MS): stop taking work, let what runs finish, hand back what cannot
// finish, close the browser, workers and database; then the process exits 0. A second signal (not the
// same stop delivered twice, as `npm start` and a process-group signal do within a moment) exits at once.
//
// Under `next start`, Next.js also stops on the signal: it closes the listener, waits for the requests in
// flight and then calls process.exit. That call is held until the steps are done (the "requests" step
// waits for it, at most until the deadline), so the database closes after the last request, not under it.

const log = logger("shutdown");

type ShutdownStep = { name: string; run: (deadline: number) => Promise<void> };

type State = {
  steps: ShutdownStep[];
  installed: boolean;
  stopping: boolean;
  /** Set once Next.js (or anything else) asked to exit during the stop: its own work is done. */
  exitRequested: boolean;
};
const holder = globalThis as typeof globalThis & { __deckhandShutdown?: State };
const state: State = (holder.__deckhandShutdown ??= {
  steps: [],
  installed: false,
  stopping: false,
  exitRequested: false,
});

/** A repeat within this long is the same stop delivered twice, not a person insisting. */
const REPEAT_MS = 1000;

/** Adds a step; steps run in the order they were added. */
export function onShutdown(name: string, run: (deadline: number) => Promise<void>): void {
  state.steps = [...state.steps.filter((step) => step.name !== name), { name, run }];
}

/** Resolves when the server's own stop asked to exit (its requests are done), or at the deadline. */
export async function requestsDrained(deadline: number): Promise<void> {
  while (!state.exitRequested && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Installs the signal handlers once per process. */
export function installShutdown(graceMs: number): void {
  if (state.installed) return;
  state.installed = true;
  const exit = process.exit.bind(process);
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.stopping) {
      if (Date.now() - firstSignalAt < REPEAT_MS) return;
      log.info("shutdown.forced", { signal });
      exit(signal === "SIGINT" ? 130 : 143);
    }
    state.stopping = true;
    firstSignalAt = Date.now();
    // Held: whoever asks to exit meanwhile (Next.js, once its requests are done) waits for the steps.
    process.exit = ((code?: number) => {
      state.exitRequested = true;
      log.info("shutdown.exit_held", { code });
    }) as typeof process.exit;
    void stop(signal, firstSignalAt + graceMs).then((ok) => exit(ok ? 0 : 1));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

async function stop(signal: string, deadline: number): Promise<boolean> {
  log.info("shutdown.started", { signal, graceMs: deadline - Date.now() });
  let ok = true;
  for (const step of state.steps) {
    const started = Date.now();
    try {
      await step.run(deadline);
    } catch (error) {
      ok = false;
      log.error("shutdown.step_failed", { step: step.name, error });
    }
    log.info("shutdown.step", { step: step.name, ms: Date.now() - started });
  }
  log.info("shutdown.done", { ok });
  return ok;
}
