import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/embed — the same sandboxed player, framable by any site
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "embed");
}
