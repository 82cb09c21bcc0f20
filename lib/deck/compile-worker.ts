import { parentPort } from "node:worker_threads";
import { AppError } from "@/lib/core/errors";
import type { DeckFormat } from "@/lib/contract/deck";
import { compileDeck } from "./compile";

// The compile worker's entry (bundled to dist/compile-worker.mjs by scripts/build-player.ts): compiles
// decks on its own thread and event loop, so esbuild's round trips never wait behind the server's requests.

type Job = { id: number; source: string; format: DeckFormat };

parentPort!.on("message", async ({ id, source, format }: Job) => {
  try {
    parentPort!.postMessage({ id, result: await compileDeck({ source, format }) });
  } catch (error) {
    const failure =
      error instanceof AppError
        ? { code: error.code, message: error.message }
        : { message: error instanceof Error ? error.message : String(error) };
    parentPort!.postMessage({ id, error: failure });
  }
});
