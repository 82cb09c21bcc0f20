import path from "node:path";
import { workerPool } from "@/lib/core/worker-pool";
import type { DeckFormat } from "@/lib/contract/deck";
import { type CompiledDeck, compileDeck } from "./compile";
import { setting } from "@/lib/core/config";

// Compiles on a worker thread when the compile worker is built (dist/compile-worker.mjs, made by
// `npm run build`), in-process otherwise. A long-running server answers many requests on one event loop;
// under load esbuild's plugin round trips queue behind them and one compile took over half a second
// (tests/bench/load.ts). A serverless instance serves one request at a time and compiles in-process.

const pool = workerPool<{ source: string; format: DeckFormat }, CompiledDeck>({
  name: "compile worker",
  // A file of the build's, not a module of the bundle: the bundler is told not to trace it.
  file: () => path.resolve(/* turbopackIgnore: true */ "dist/compile-worker.mjs"),
  enabled: () => setting("COMPILE_IN_WORKER"),
  inProcess: (input) => compileDeck(input),
});

export function compileDeckOffThread(input: { source: string; format: DeckFormat }): Promise<CompiledDeck> {
  return pool.run(input);
}

/** Whether compiles currently go to the worker thread (for tests and diagnostics). */
export function compileWorkerRunning(): boolean {
  return pool.running();
}
