import path from "node:path";
import { setting } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { workerPool } from "@/lib/core/worker-pool";
import type { PptxDeck } from "./model";
import { readPptx } from "./read-pptx";

// The PowerPoint reader on a worker thread of its own (dist/pptx-worker.mjs, made by `npm run build`), with
// a heap cap: a package that needs more memory than that to read costs that worker, not the server, and is
// answered 422. Inflated bytes are bounded by zip.ts's caps. In-process when the worker is not built or
// COMPILE_IN_WORKER=0.

const WORKER_HEAP_MB = 384;

const pool = workerPool<Uint8Array, PptxDeck>({
  name: "PowerPoint reader worker",
  file: () => path.resolve(/* turbopackIgnore: true */ "dist/pptx-worker.mjs"),
  enabled: () => setting("COMPILE_IN_WORKER"),
  inProcess: async (bytes) => readPptx(bytes),
  resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  outOfMemory: () =>
    new AppError(
      "payload_too_large",
      `The PowerPoint package needs more than ${WORKER_HEAP_MB} MB of memory to read; it is not imported.`,
    ),
});

export function readPptxOffThread(bytes: Uint8Array): Promise<PptxDeck> {
  return pool.run(bytes);
}
