import { getDb } from "@/lib/db/client";
import { getOgImage, placeholder } from "@/lib/render/og-image";
import { findPublicDeck } from "@/lib/viewer/viewable-deck";
import { logger } from "@/lib/core/log";

// GET /d/{slug}/og.png — the first slide of a public deck, for link previews. Query parameters are ignored:
// the image is the newest version's, rendered once (see og-image.ts).
// The first request for a version renders it in Chromium (a cold start on a serverless function).
export const maxDuration = 60;

export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const viewable = await findPublicDeck(await getDb(), (await params).slug);
  // A password link's first slide is not shown to link unfurlers either.
  if (!viewable || viewable.version.format !== "deck-tsx" || viewable.passwordHash) {
    return new Response("Not found", { status: 404 });
  }
  try {
    const { png, placeholder: unavailable } = await getOgImage(viewable.deck.id, viewable.version.version);
    return image(png, unavailable ? "public, max-age=3600" : "public, max-age=86400");
  } catch (error) {
    logger("og-image").error("the link preview could not be drawn", { slug: (await params).slug, error });
    // Not kept: the next request tries again.
    return image(await placeholder(), "no-store");
  }
}

function image(png: Buffer, cacheControl: string): Response {
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": cacheControl, "X-Content-Type-Options": "nosniff" },
  });
}
