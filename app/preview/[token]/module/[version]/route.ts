import { servePreview } from "@/lib/viewer/serve";

// GET /preview/{token}/module/{version} — the compiled module behind a preview frame
export async function GET(req: Request, { params }: { params: Promise<{ token: string; version: string }> }) {
  const { token, version } = await params;
  return servePreview(req, token, { module: version });
}
