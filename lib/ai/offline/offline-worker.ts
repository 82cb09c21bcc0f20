import { parentPort } from "node:worker_threads";
import { serveWorkerJobs } from "@/lib/core/worker-pool";
import { generateOfflineDeck } from "./generate-deck";

// The offline generator's worker entry (bundled to dist/offline-worker.mjs by scripts/build-player.ts).

serveWorkerJobs(parentPort!, generateOfflineDeck);
