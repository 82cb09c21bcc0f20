import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/frame — the sandboxed document the share page frames
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "frame");
}
