import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/logo — the brand logo of the deck a signed preview token grants (JSON 404 when none)
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return servePreview(req, (await params).token, "logo");
}
