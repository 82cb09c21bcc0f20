import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/view — the editor's present mode: the player full screen, P opens the presenter
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return servePreview(req, (await params).token, "view");
}
