import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { type ExtractionJob, type ExtractionResult, runExtractionJob } from "./extraction-jobs";
import { extractionLimits } from "./limits";
import { setting } from "@/lib/core/config";

// Runs one brand extraction's CPU work on a worker thread of its own (dist/brand-worker.mjs, made by
// `npm run build`): the server's event loop keeps answering while a site's CSS is parsed and its colours
// clustered, and a site that would take longer than the deadline, or more memory than the worker's heap,
// costs that worker and nothing else. Without the built worker (a serverless bundle, a bare dev server)
// the steps run in-process, bounded by extractionLimits alone.

export class ExtractionAbortedError extends Error {}

export type Extractor = {
  run<J extends ExtractionJob>(job: J): Promise<ExtractionResult<J>>;
  close(): void;
};

const workerFile = () => path.resolve(/* turbopackIgnore: true */ "dist/brand-worker.mjs");

export function startExtractor(options: { deadlineMs?: number } = {}): Extractor {
  const file = workerFile();
  if (!setting("BRAND_EXTRACT_IN_WORKER") || !fs.existsSync(/* turbopackIgnore: true */ file)) {
    return { run: async (job) => runExtractionJob(job) as ExtractionResult<typeof job>, close: () => {} };
  }
  const deadlineMs = options.deadlineMs ?? extractionLimits.deadlineMs;
  const worker = new Worker(/* turbopackIgnore: true */ file, {
    resourceLimits: { maxOldGenerationSizeMb: extractionLimits.workerHeapMb },
  });
  worker.unref();
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let stopped: Error | null = null;
  const stop = (error: Error) => {
    if (stopped) return;
    stopped = error;
    clearTimeout(deadline);
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    void worker.terminate();
  };
  const deadline = setTimeout(
    () => stop(new ExtractionAbortedError(`it took longer than ${deadlineMs / 1000} s`)),
    deadlineMs,
  );
  deadline.unref();
  worker.on("message", ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    if (error === undefined) job.resolve(result as never);
    else job.reject(new Error(`brand extraction: ${error}`));
  });
  worker.on("error", (error) =>
    stop(
      (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new ExtractionAbortedError(`it needed more than ${extractionLimits.workerHeapMb} MB of memory`)
        : error,
    ),
  );
  worker.on("exit", (code) => stop(new Error(`the brand worker exited (code ${code})`)));
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        if (stopped) return reject(stopped);
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: never) => void, reject });
        worker.postMessage({ id, job });
      }),
    close: () => stop(new Error("the extraction is over")),
  };
}
