import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { AppError, type ErrorCode } from "@/lib/core/errors";
import type { DeckFormat } from "@/lib/contract/deck";
import { type CompiledDeck, compileDeck } from "./compile";
import { setting } from "@/lib/core/config";

// Compiles on a worker thread when the compile worker is built (dist/compile-worker.mjs, made by
// `npm run build`), in-process otherwise. A long-running server answers many requests on one event loop;
// under load esbuild's plugin round trips queue behind them and one compile took over half a second
// (tests/bench/load.ts). A serverless instance serves one request at a time and compiles in-process.

type Reply = { id: number; result?: CompiledDeck; error?: { code?: ErrorCode; message: string } };
type Pending = { resolve: (value: CompiledDeck) => void; reject: (error: Error) => void };

const workerFile = () => path.resolve(/* turbopackIgnore: true */ "dist/compile-worker.mjs");
const pending = new Map<number, Pending>();
let worker: Worker | null = null;
let nextId = 1;

function failAll(error: Error) {
  for (const job of pending.values()) job.reject(error);
  pending.clear();
  worker = null;
}

function getWorker(): Worker | null {
  if (worker) return worker;
  // A file of the build's, not a module of the bundle: the bundler is told not to trace it.
  const file = workerFile();
  if (!setting("COMPILE_IN_WORKER") || !fs.existsSync(/* turbopackIgnore: true */ file)) return null;
  const started = new Worker(/* turbopackIgnore: true */ file);
  started.unref();
  started.on("message", ({ id, result, error }: Reply) => {
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    if (result) job.resolve(result);
    else if (error?.code) job.reject(new AppError(error.code, error.message));
    else job.reject(new Error(`compile worker: ${error?.message ?? "no result"}`));
  });
  started.on("error", (error) => failAll(error));
  started.on("exit", (code) => failAll(new Error(`the compile worker exited (code ${code})`)));
  worker = started;
  return worker;
}

export function compileDeckOffThread(input: { source: string; format: DeckFormat }): Promise<CompiledDeck> {
  const target = getWorker();
  if (!target) return compileDeck(input);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    target.postMessage({ id, source: input.source, format: input.format });
  });
}

/** Whether compiles currently go to the worker thread (for tests and diagnostics). */
export function compileWorkerRunning(): boolean {
  return worker !== null;
}
