import { getDb } from "@/lib/db/client";
import { withDeckPage } from "@/lib/render/deck-page";
import { getFileStore } from "@/lib/storage/storage";
import { findDeckVersion } from "./viewable-deck";

export const OG_SIZE = { width: 1200, height: 675 } as const;

// The first slide of a deck version as a PNG for link unfurls. Rendered once per version by the
// sandboxed player and kept in the file store; versions never change, so neither does the image.
export async function getOgImage(deckId: string, version: number): Promise<Buffer> {
  const store = getFileStore();
  const key = `og/${deckId}/${version}.png`;
  const cached = await store.get(key);
  if (cached) return cached.data;

  const viewable = await findDeckVersion(await getDb(), deckId, version);
  if (!viewable) throw new Error(`Deck ${deckId} has no version ${version}`);
  const png = await withDeckPage(viewable, { mode: "thumb", viewport: OG_SIZE, timeoutMs: 20_000 }, async (page) =>
    Buffer.from(await page.screenshot({ type: "png" })),
  );
  await store.put(key, png, "image/png");
  return png;
}
