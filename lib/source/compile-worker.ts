import { parentPort } from "node:worker_threads";
import { serveWorkerJobs } from "@/lib/core/worker-pool";
import type { DeckFormat } from "@/lib/contract/deck";
import { compileDeck } from "./compile";

// The compile worker's entry (bundled to dist/compile-worker.mjs by scripts/build-player.ts): compiles
// decks on its own thread and event loop, so esbuild's round trips never wait behind the server's requests.

serveWorkerJobs(parentPort!, (input: { source: string; format: DeckFormat }) => compileDeck(input));
