import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug} — the share page of a public deck
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "page");
}
