import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/frame — a sandboxed render of the version a signed preview token grants
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return servePreview(req, (await params).token, "frame");
}
