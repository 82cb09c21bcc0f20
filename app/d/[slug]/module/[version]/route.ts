import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/module/{version} — the compiled module of the deck's newest version
export async function GET(req: Request, { params }: { params: Promise<{ slug: string; version: string }> }) {
  const { slug, version } = await params;
  return servePublicDeck(req, slug, { module: version });
}
