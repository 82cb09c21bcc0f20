import { parentPort } from "node:worker_threads";
import { serveWorkerJobs } from "@/lib/core/worker-pool";
import { readPptx } from "./read-pptx";

// The PowerPoint reader's worker entry (bundled to dist/pptx-worker.mjs by scripts/build-player.ts).

serveWorkerJobs(parentPort!, readPptx);
