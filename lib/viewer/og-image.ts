import { config } from "@/lib/config";
import { withRenderPage, waitForPlayer } from "@/lib/render/browser";
import { getFileStore } from "@/lib/storage/storage";
import { mintPreviewToken } from "./preview-token";

export const OG_SIZE = { width: 1200, height: 675 } as const;

// The first slide of a deck version as a PNG for link unfurls. Rendered once per version through the
// sandboxed player and kept in the file store; versions never change, so neither does the image.
export async function getOgImage(deckId: string, version: number): Promise<Buffer> {
  const store = getFileStore();
  const key = `og/${deckId}/${version}.png`;
  const cached = await store.get(key);
  if (cached) return cached.data;

  const origin = config.deckContentOrigin ?? config.appUrl;
  const token = mintPreviewToken({ deckId, version }, 60_000);
  const png = await withRenderPage({ allowedOrigin: origin, viewport: OG_SIZE, timeoutMs: 20_000 }, async (page) => {
    await page.goto(`${origin}/preview/${token}/frame?mode=thumb&chrome=0&slide=1`, { waitUntil: "load" });
    await waitForPlayer(page);
    return Buffer.from(await page.screenshot({ type: "png" }));
  });
  await store.put(key, png, "image/png");
  return png;
}
