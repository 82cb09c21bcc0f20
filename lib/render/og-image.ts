import fs from "node:fs/promises";
import path from "node:path";
import pLimit from "p-limit";
import { getDb } from "@/lib/db/client";
import { DeckFaultError, pictureOf } from "./browser";
import { withDeckPage } from "./deck-page";
import { getFileStore } from "@/lib/storage/storage";
import { findDeckVersion } from "@/lib/viewer/viewable-deck";

const OG_SIZE = { width: 1200, height: 675 } as const;

/** Preview images rendering at once in this process; more wait their turn. */
const MAX_CONCURRENT_RENDERS = 2;
const limited = pLimit(MAX_CONCURRENT_RENDERS);
/** One slide in thumbnail mode: far less than an export's allowance. */
const READY_MS = 8_000;

export type OgImage = { png: Buffer; placeholder: boolean };

// The first slide of a deck version as a PNG for link unfurls, rendered at most once per version: the
// image (or, for a deck that cannot render, the fact that it cannot) is kept in the file store, and
// requests for a version being rendered wait for that one render. Versions never change, so neither
// does the answer. A deck that cannot render gets a neutral placeholder.
export async function getOgImage(deckId: string, version: number): Promise<OgImage> {
  const key = `og/${deckId}/${version}`;
  let job = inFlight.get(key);
  if (!job) {
    job = lookUpOrRender(deckId, version, key).finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

const inFlight = new Map<string, Promise<OgImage>>();
let renders = 0;

/** Renders started by this process (for tests and diagnostics). */
export function ogRenderCount(): number {
  return renders;
}

async function lookUpOrRender(deckId: string, version: number, key: string): Promise<OgImage> {
  const store = getFileStore();
  const cached = await store.get(`${key}.png`);
  if (cached) return { png: cached.data, placeholder: false };
  if (await store.get(`${key}.failed`)) return { png: await placeholder(), placeholder: true };

  const viewable = await findDeckVersion(await getDb(), deckId, version);
  if (!viewable) throw new Error(`Deck ${deckId} has no version ${version}`);
  // At most MAX_CONCURRENT_RENDERS renders hold a Chromium page at once; the rest wait their turn.
  return limited(async () => {
    try {
      renders += 1;
      const png = await withDeckPage(
        viewable,
        { mode: "thumb", viewport: OG_SIZE, timeoutMs: 20_000, readyMs: READY_MS },
        (page) => pictureOf(page, { x: 0, y: 0, ...OG_SIZE }, { optimizeForSpeed: false }),
      );
      await store.put(`${key}.png`, png, "image/png");
      return { png, placeholder: false };
    } catch (error) {
      // The deck's fault is as permanent as the version; anything else may be tried again later.
      if (!(error instanceof DeckFaultError)) throw error;
      await store.put(`${key}.failed`, Buffer.from(error.message), "text/plain");
      return { png: await placeholder(), placeholder: true };
    }
  });
}

let placeholderPng: Promise<Buffer> | undefined;
export function placeholder(): Promise<Buffer> {
  placeholderPng ??= fs.readFile(path.join(process.cwd(), "public", "og-placeholder.png"));
  return placeholderPng;
}
