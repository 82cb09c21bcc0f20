import { parentPort } from "node:worker_threads";
import { type ExtractionJob, runExtractionJob } from "./extraction-jobs";

// The brand worker's entry (bundled to dist/brand-worker.mjs by scripts/build-player.ts): parses a page and
// its stylesheets and builds the brand on its own thread, so a large or hostile site never holds up the
// server's event loop. One worker serves one extraction and is stopped when it is done or out of time.

parentPort!.on("message", ({ id, job }: { id: number; job: ExtractionJob }) => {
  try {
    parentPort!.postMessage({ id, result: runExtractionJob(job) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
