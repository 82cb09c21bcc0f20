import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/presenter — current and next slide, notes and timer, in step with /view
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return servePreview(req, (await params).token, "presenter");
}
