import { servePublicDeck } from "@/lib/viewer/serve";

// GET /d/{slug}/presenter — notes, next slide and timer, in step with the share page
export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  return servePublicDeck(req, (await params).slug, "presenter");
}
