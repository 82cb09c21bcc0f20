import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { compileDeck } from "@/lib/source/compile";
import { compileDeckOffThread, compileWorkerRunning } from "@/lib/source/compile-pool";
import { deckSource } from "../helpers/decks";

// The compile worker (built into dist/ by the test run's global setup) gives exactly what compiling
// in-process gives: the same module and outline, the same compile errors as AppErrors.
describe("compiling on the worker thread", () => {
  it("returns what the in-process compiler returns, for many compiles at once", async () => {
    const sources = Array.from({ length: 20 }, (_, i) => deckSource([`One ${i}`, `Two ${i}`]));
    const offThread = await Promise.all(sources.map((source) => compileDeckOffThread({ source, format: "slides" })));
    expect(compileWorkerRunning()).toBe(true);
    for (const [i, source] of sources.entries()) {
      expect(offThread[i]).toEqual(await compileDeck({ source, format: "slides" }));
    }
  });

  it("answers a module that does not compile with the same compile_failed error", async () => {
    const source = 'import { Deck, Nope } from "@deckhand/player";\nexport default () => <Deck><Nope /></Deck>;\n';
    const inProcess = await compileDeck({ source, format: "slides" }).catch((e: unknown) => e);
    const offThread = await compileDeckOffThread({ source, format: "slides" }).catch((e: unknown) => e);
    expect(offThread).toBeInstanceOf(AppError);
    expect(offThread).toMatchObject({ code: "compile_failed", message: (inProcess as AppError).message });
  });
});
