import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/module/{version} — the compiled module behind a preview frame
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  return servePreview(req, (await params).token, "module");
}
