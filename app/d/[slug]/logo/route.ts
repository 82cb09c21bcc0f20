import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/logo — the brand logo the deck's <Logo> draws (an image, or a JSON 404 when there is none)
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "logo");
}
