import { getDb } from "@/lib/db/client";
import { getOgImage } from "@/lib/viewer/og-image";
import { findPublicDeck } from "@/lib/viewer/viewable-deck";

// GET /d/{slug}/og.png — the first slide of a public deck, for link previews
export async function GET(_req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const viewable = await findPublicDeck(await getDb(), (await params).slug);
  if (!viewable || viewable.version.format !== "deck-tsx") return new Response("Not found", { status: 404 });
  try {
    const png = await getOgImage(viewable.deck.id, viewable.version.version);
    return new Response(new Uint8Array(png), {
      headers: {
        "Content-Type": "image/png",
        "Cache-Control": "public, max-age=86400",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", route: "og.png", message: String(error) }));
    return new Response("Preview image unavailable", { status: 503, headers: { "Retry-After": "30" } });
  }
}
