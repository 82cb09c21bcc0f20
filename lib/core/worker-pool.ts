import fs from "node:fs";
import { type MessagePort, type ResourceLimits, Worker } from "node:worker_threads";
import { AppError, type ErrorCode } from "./errors";

// One long-lived worker thread answering requests by id: the server's CPU-heavy pure work (compiling a
// deck, turning Markdown into a deck) runs on its own event loop, so a large job never stalls the
// requests around it. A job's AppError crosses back as an AppError with its code; anything else as an
// Error. When the worker file is not built (a serverless bundle, a bare dev server), or running in a
// worker is turned off, `run` does the work in-process instead.

type Reply<R> = { id: number; result?: R; error?: { code?: ErrorCode; message: string } };

export type WorkerPool<M, R> = {
  run: (message: M) => Promise<R>;
  running: () => boolean;
  /** Ends the worker thread (at shutdown); a later job starts a new one. */
  close: () => Promise<void>;
};

const pools = new Set<WorkerPool<never, unknown>>();

/** Ends every pool's worker thread (at shutdown). */
export async function closeWorkerPools(): Promise<void> {
  await Promise.all([...pools].map((pool) => pool.close()));
}

export function workerPool<M, R>(options: {
  /** The built worker (an absolute path), read when the first job comes. */
  file: () => string;
  enabled: () => boolean;
  inProcess: (message: M) => Promise<R>;
  name: string;
  /** The worker's heap cap; a job that needs more costs the worker (and the jobs it holds) `outOfMemory()`. */
  resourceLimits?: ResourceLimits;
  outOfMemory?: () => Error;
}): WorkerPool<M, R> {
  const pending = new Map<number, { resolve: (value: R) => void; reject: (error: Error) => void }>();
  let worker: Worker | null = null;
  let nextId = 1;

  const failAll = (error: Error) => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    worker = null;
  };

  const getWorker = (): Worker | null => {
    if (worker) return worker;
    const file = options.file();
    if (!options.enabled() || !fs.existsSync(/* turbopackIgnore: true */ file)) return null;
    const started = new Worker(/* turbopackIgnore: true */ file, { resourceLimits: options.resourceLimits });
    started.unref();
    started.on("message", ({ id, result, error }: Reply<R>) => {
      const job = pending.get(id);
      if (!job) return;
      pending.delete(id);
      if (!error) job.resolve(result as R);
      else if (error.code) job.reject(new AppError(error.code, error.message));
      else job.reject(new Error(`${options.name}: ${error.message}`));
    });
    started.on("error", (error) =>
      failAll(
        (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY" && options.outOfMemory
          ? options.outOfMemory()
          : error,
      ),
    );
    started.on("exit", (code) => failAll(new Error(`the ${options.name} exited (code ${code})`)));
    worker = started;
    return worker;
  };

  const pool: WorkerPool<M, R> = {
    run(message) {
      const target = getWorker();
      if (!target) return options.inProcess(message);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        target.postMessage({ id, message });
      });
    },
    running: () => worker !== null,
    close: async () => {
      const ending = worker;
      worker = null;
      if (ending) await ending.terminate();
    },
  };
  pools.add(pool as WorkerPool<never, unknown>);
  return pool;
}

/** The worker side: answers each `{ id, message }` with `handle(message)`'s result or its error. */
export function serveWorkerJobs<M, R>(port: MessagePort, handle: (message: M) => Promise<R> | R) {
  port.on("message", async ({ id, message }: { id: number; message: M }) => {
    try {
      port.postMessage({ id, result: await handle(message) });
    } catch (error) {
      const failure =
        error instanceof AppError
          ? { code: error.code, message: error.message }
          : { message: error instanceof Error ? error.message : String(error) };
      port.postMessage({ id, error: failure });
    }
  });
}
