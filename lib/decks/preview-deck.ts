import { config } from "@/lib/config";
import type { Ctx } from "@/lib/auth/caller";
import { mintPreviewToken } from "@/lib/viewer/preview-token";
import { getDeckVersion } from "./deck-versions";

// A short-lived URL that renders one version of a deck the caller may read, whatever its visibility,
// in the sandboxed player (the editor's preview, the export renderer).
export async function createPreviewUrl(ctx: Ctx, deckId: string, version: number, options: { ttlMs?: number } = {}) {
  await getDeckVersion(ctx, deckId, version);
  const token = mintPreviewToken({ deckId, version }, options.ttlMs);
  const origin = config.deckContentOrigin ?? config.appUrl;
  return { url: `${origin}/preview/${token}/frame`, token };
}
