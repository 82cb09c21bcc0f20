import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/embedded — the page other sites embed: the deck's embed frame and the analytics beacon
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "embedded");
}
