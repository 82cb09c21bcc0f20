import path from "node:path";
import { setting } from "@/lib/core/config";
import { workerPool } from "@/lib/core/worker-pool";
import { type GeneratedDeck, generateOfflineDeck, type OfflineInput } from "./generate-deck";

// The offline generator on a worker thread of its own (dist/offline-worker.mjs, made by `npm run build`):
// parsing a megabyte of Markdown takes seconds, which the server's event loop must not spend. In-process
// when the worker is not built or COMPILE_IN_WORKER=0.

const pool = workerPool<OfflineInput, GeneratedDeck>({
  name: "offline generator worker",
  file: () => path.resolve(/* turbopackIgnore: true */ "dist/offline-worker.mjs"),
  enabled: () => setting("COMPILE_IN_WORKER"),
  inProcess: async (input) => generateOfflineDeck(input),
});

export function generateOfflineDeckOffThread(input: OfflineInput): Promise<GeneratedDeck> {
  return pool.run(input);
}
